package pymodule

import "reflect"

// The adapters F0 … F10R3E that make a Fn are generated, into
// adapters_gen.go, by gen_adapters.go (go generate; TestAdaptersGenerated
// fails while they are stale).

// A Fn is a Go function with its types, made by one of the adapters [F0] …
// [F10R3E]: F and the number of parameters, then R and the number of
// results (R alone for one), then E when a last, extra result is an error.
// [Def], [Method], [StaticMethod] and a [Class]'s members bind it.
type Fn struct {
	in, out []reflect.Type
	err     bool
	bind    func(b *binding) func(*call) error
}
