package pymodule

import "errors"

// Shared returns f, a [Method], marked as only reading its instance, as
// PyO3's &self beside &mut self: calls of shared methods on one value run
// at once, from many threads when they release the GIL
// ([Function.WithoutGIL]), beside property getters and [Field] reads,
// which are shared too. An exclusive call (any other method, a property
// setter) and a shared one never run on one value at once: the later one
// raises RuntimeError at once, as two exclusive calls do ([Class]), and
// never waits. Only the instance is shared: the method's other instance
// arguments are held exclusively.
//
// The Go method must not write the value, nor anything its other shared
// methods read, unless it guards that itself (an atomic counter, a mutex):
// several goroutines run it at once.
func (f Function) Shared() Function { f.shared = true; return f }

// checkShared says what is wrong with f's Shared: only a method has an
// instance to share.
func (f *Function) checkShared() error {
	if f.shared && f.role != roleMethod {
		return errors.New("Shared applies to a class's Method, which it lets run beside other shared calls")
	}
	return nil
}

// holdsShared says whether b's parameter i is held beside other shared
// calls: a shared method's instance, or a property getter's.
func (b *binding) holdsShared(i int) bool { return i == 0 && (b.shared || b.role == roleGetter) }
