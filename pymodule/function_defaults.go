package pymodule

// #include <stdlib.h>
// #include "pymodule.h"
import "C"

import (
	"math"
	"strconv"
	"strings"
	"unsafe"

	"github.com/godlpack/godlpack/internal/fmt"
	"github.com/godlpack/godlpack/scalar"
)

// checkDefault says what is wrong with p's default, without Python: what
// setDefault would refuse, for a plan that is only a stub's.
func (p *param) checkDefault() error {
	cp := (*C.gdl_param)(C.calloc(1, C.sizeof_gdl_param))
	defer C.free(unsafe.Pointer(cp))
	err := p.setDefault(cp, false)
	if err == nil && (p.kind == kindString || p.kind == kindBytes) && cp.dflt.present {
		C.free(unsafe.Pointer((*cBytes)(unsafe.Pointer(&cp.dflt.v)).p))
	}
	return err
}

// setDefault stores p's default, converted once, in its C parameter; an
// object parameter's None only when python says the interpreter runs.
func (p *param) setDefault(cp *C.gdl_param, python bool) error {
	cp.has_default = true
	d := strings.TrimSpace(p.dflt)
	dst := unsafe.Pointer(&cp.dflt.v)
	if d == "None" {
		if !p.optional && p.kind != kindObject {
			return fmt.Errorf("default None needs an Optional parameter")
		}
		cp.dflt.present = C.bool(p.kind == kindObject)
		if !python {
			return nil
		}
		*(*unsafe.Pointer)(dst) = unsafe.Pointer(C.gdl_none()) // an object parameter's None; immortal enough: never dropped
		return nil
	}
	cp.dflt.present = true
	if p.enum != nil {
		// An enum's member, by name (Mode.FAST), stands for its value.
		for _, m := range p.enum.members {
			if d == p.enum.name+"."+m.name {
				d = strconv.FormatInt(m.value, 10)
			}
		}
	}
	bad := func(err error) error { return fmt.Errorf("default %s is not %s: %v", d, p.typeName(), err) }
	switch p.kind {
	case kindBool:
		if d != "True" && d != "False" {
			return bad(fmt.Errorf("want True or False"))
		}
		*(*bool)(dst) = d == "True"
	case kindInt8, kindInt16, kindInt32, kindInt64, kindUint8, kindUint16, kindUint32, kindUint64:
		bits := [...]int{kindInt8: 8, kindInt16: 16, kindInt32: 32, kindInt64: 64,
			kindUint8: 8, kindUint16: 16, kindUint32: 32, kindUint64: 64}[p.kind]
		digits := strings.ReplaceAll(d, "_", "")
		var v uint64
		var err error
		if p.kind <= kindInt64 {
			var i int64
			i, err = strconv.ParseInt(digits, 0, bits)
			v = uint64(i)
		} else {
			v, err = strconv.ParseUint(digits, 0, bits)
		}
		if err != nil {
			return bad(err)
		}
		storeBits(dst, bits, v)
	case kindFloat32, kindFloat64:
		f, err := strconv.ParseFloat(strings.ReplaceAll(d, "_", ""), 64)
		if err != nil && !math.IsInf(f, 0) {
			return bad(err)
		}
		if math.IsNaN(f) { // inspect.signature reads literals and names, and NaN is neither
			return fmt.Errorf("default %s: a NaN default cannot be shown in the signature; take an Optional "+
				"parameter and use NaN when it is None", d)
		}
		if p.kind == kindFloat32 {
			*(*float32)(dst) = float32(f)
		} else {
			*(*float64)(dst) = f
		}
	case kindComplex64, kindComplex128:
		z, err := strconv.ParseComplex(strings.ReplaceAll(strings.Trim(d, "()"), "j", "i"), 128)
		if err != nil {
			return bad(err)
		}
		if p.kind == kindComplex64 {
			*(*complex64)(dst) = complex64(z)
		} else {
			*(*complex128)(dst) = z
		}
	case kindString, kindBytes:
		if p.kind == kindBytes {
			if !strings.HasPrefix(d, "b") {
				return bad(fmt.Errorf("want a bytes literal"))
			}
			d = d[1:]
		}
		if len(d) >= 2 && d[0] == '\'' && d[len(d)-1] == '\'' {
			d = `"` + strings.ReplaceAll(strings.ReplaceAll(d[1:len(d)-1], `\'`, `'`), `"`, `\"`) + `"`
		}
		s, err := strconv.Unquote(d)
		if err != nil {
			return bad(err)
		}
		cs := C.gdl_result_bytes(unsafe.Pointer(unsafe.StringData(s)), C.size_t(len(s)))
		if cs == nil {
			return fmt.Errorf("out of memory")
		}
		*(*cBytes)(dst) = cBytes{cs, C.Py_ssize_t(len(s))}
	case kindNumber:
		s, err := numberLiteral(d)
		if err != nil {
			return bad(err)
		}
		*(*scalar.Scalar)(dst) = s
	default:
		return fmt.Errorf("a %s parameter takes no default but None", p.typeName())
	}
	return nil
}

// numberLiteral reads a Python literal of a bool, an int of 64 bits, a float
// or a complex as the scalar.Scalar a call with that argument would get.
func numberLiteral(d string) (scalar.Scalar, error) {
	digits := strings.ReplaceAll(d, "_", "")
	if d == "True" || d == "False" {
		return scalar.Scalar{Kind: scalar.Bool, Int: map[bool]int64{false: 0, true: 1}[d == "True"]}, nil
	}
	if i, err := strconv.ParseInt(digits, 0, 64); err == nil {
		return scalar.Scalar{Kind: scalar.Int, Int: i}, nil
	}
	if u, err := strconv.ParseUint(digits, 0, 64); err == nil {
		return scalar.Scalar{Kind: scalar.Uint, Uint: u}, nil
	}
	if f, err := strconv.ParseFloat(digits, 64); err == nil || math.IsInf(f, 0) {
		if math.IsNaN(f) {
			return scalar.Scalar{}, fmt.Errorf("a NaN default cannot be shown in the signature")
		}
		return scalar.Scalar{Kind: scalar.Float, Real: f}, nil
	}
	z, err := strconv.ParseComplex(strings.ReplaceAll(strings.Trim(digits, "()"), "j", "i"), 128)
	if err != nil {
		return scalar.Scalar{}, fmt.Errorf("want a bool, an int of 64 bits, a float or a complex literal")
	}
	return scalar.Scalar{Kind: scalar.Complex, Real: real(z), Imag: imag(z)}, nil
}

// storeBits stores the low bits of v, an integer that fits in them, at dst:
// the two's complement of a signed one, as a Go conversion would.
func storeBits(dst unsafe.Pointer, bits int, v uint64) {
	switch bits {
	case 8:
		*(*uint8)(dst) = uint8(v)
	case 16:
		*(*uint16)(dst) = uint16(v)
	case 32:
		*(*uint32)(dst) = uint32(v)
	default:
		*(*uint64)(dst) = v
	}
}
