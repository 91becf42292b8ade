package pymodule

// #include <stdlib.h>
// #include "pymodule.h"
import "C"

import (
	"strconv"
	"strings"

	"github.com/godlpack/godlpack/internal/pysig"
)

// What Python tools show of a bound function: its signature with the
// annotations of its parameters and result, tensors' included ("norms(x:
// tensor[float32, (*, *)], /, norm: Norm = Norm.L2) ->
// numpy.ndarray[float32, (*)]"), where the stub's types cannot carry them
// all (a tensor parameter is a protocol there). The stub's docstring opens
// with it (docSignature), and the function's __signature__ is an
// inspect.Signature of it (pythonSignature), whose annotations are these
// texts, as under "from __future__ import annotations".

// joinParams writes a parameter list as a def statement does, each
// parameter of sig as write writes it: a "/" after the positional-only
// ones, a "*" before the keyword-only ones.
func joinParams(sig []pysig.Param, write func(i int) string) string {
	var parts []string
	star := false
	for i, p := range sig {
		if p.Kind == pysig.KeywordOnly && !star {
			parts = append(parts, "*")
			star = true
		}
		parts = append(parts, write(i))
		if p.Kind == pysig.PositionalOnly && (i+1 == len(sig) || sig[i+1].Kind != pysig.PositionalOnly) {
			parts = append(parts, "/")
		}
	}
	return strings.Join(parts, ", ")
}

// shownName is the name b's signature is shown under: its class's for a
// constructor.
func (b *binding) shownName() string {
	if b.role == roleInit {
		return b.class.name
	}
	return b.name
}

// shownParam is the annotation of parameter i of b as Python tools show it
// (paramType): none for a method's self.
func (b *binding) shownParam(st *stubber, i int) string {
	if i == 0 && b.role.takesSelf() {
		return ""
	}
	return st.paramType(&b.params[i], true)
}

// tensorResultNames names the type of a tensor result, by what it is returned as.
var tensorResultNames = [...]string{AsTensor: "Tensor", AsNumPy: "numpy.ndarray", AsTorch: "torch.Tensor",
	AsGodlpack: "godlpack.Tensor"}

// docSignature is b's signature as the first line of its stub's docstring
// shows it, defaults as written: "clip_(x: tensor[float32, writable], /,
// lo: float = -inf) -> int".
func (b *binding) docSignature(st *stubber) string {
	params := joinParams(b.signature, func(i int) string {
		p := b.signature[i]
		s := p.Name
		if t := b.shownParam(st, i); t != "" {
			s += ": " + t
		}
		if p.HasDefault {
			s += " = " + b.shownDefault(i)
		}
		return s
	})
	if b.role == roleInit {
		return b.shownName() + "(" + params + ")"
	}
	return b.shownName() + "(" + params + ") -> " + st.returns(b, true)
}

// shownDefault is the default of parameter i of b as written, but for a
// member of another module's enum, which its module names (other.Mode.A).
func (b *binding) shownDefault(i int) string {
	d := b.signature[i].Default
	if e := b.params[i].enum; e != nil && e.module != "" && e.module != b.module && strings.HasPrefix(d, e.name+".") {
		return e.module + "." + d
	}
	return d
}

// saysMore says whether b's signature as Python tools show it says more
// than a stub's def line: a tensor's annotation (a protocol there), a
// default's value (... there), a tensor result's dtypes or shape.
func (b *binding) saysMore() bool {
	for i, p := range b.params {
		if p.tensor != nil || b.signature[i].HasDefault {
			return true
		}
	}
	for _, o := range b.outs {
		if o.kind == kindTensor && o.tensor != nil {
			return true
		}
	}
	return false
}

// pythonSignature is Python source that defines a function of b's
// signature, each annotation a string: the function object's __signature__
// is inspect.signature of that function, the source run in a copy of the
// module's namespace (signature.c), where an enum's member is a default. An
// enum of another module is named by its module, which the source imports.
func (b *binding) pythonSignature(st *stubber) string {
	var imports strings.Builder
	params := joinParams(b.signature, func(i int) string {
		p := b.signature[i]
		s := p.Name
		if t := b.shownParam(st, i); t != "" {
			s += ": " + strconv.Quote(t)
		}
		if p.HasDefault {
			d := b.shownDefault(i)
			if e := b.params[i].enum; e != nil && d != p.Default {
				imports.WriteString("import " + e.module + "\n")
			}
			s += " = " + pythonDefault(b.params[i].kind, d)
		}
		return s
	})
	result := "None"
	if len(b.outs) > 0 {
		result = strconv.Quote(st.returns(b, true))
	}
	return imports.String() + "def " + C.GDL_SIGNATURE_DEF + "(" + params + ") -> " + result + ": pass\n"
}

// textSignature is the first line of the docstring that inspect.signature
// reads where __signature__ is not (a class's constructor): no annotations,
// which CPython's parser of text signatures refuses.
func (b *binding) textSignature() string {
	params := joinParams(b.signature, func(i int) string {
		p := b.signature[i]
		if i == 0 && b.role.takesSelf() {
			return "$self" // inspect leaves it out of a bound method's signature, as of a C method's
		}
		if p.HasDefault {
			return p.Name + "=" + pythonDefault(b.params[i].kind, p.Default)
		}
		return p.Name
	})
	if b.role == roleFunction {
		params = strings.TrimSuffix("$module, "+params, ", ")
	}
	return b.shownName() + "(" + params + ")"
}

// pythonDefault writes a default so that inspect's parser of text
// signatures evaluates it: inf has no literal, but 1e999 is one.
func pythonDefault(k kind, d string) string {
	if k != kindFloat32 && k != kindFloat64 {
		return d
	}
	// ParseFloat's spellings of infinity, in any case: ASCII, so lowered by hand (strings.ToLower would link
	// Unicode's case tables into every extension).
	lower := []byte(strings.TrimPrefix(d, "+"))
	for i, c := range lower {
		if 'A' <= c && c <= 'Z' {
			lower[i] = c + 'a' - 'A'
		}
	}
	switch string(lower) {
	case "inf", "infinity":
		return "1e999"
	case "-inf", "-infinity":
		return "-1e999"
	}
	return d
}
