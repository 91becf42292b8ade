package cpython

// #include "cpython.h"
import "C"

import (
	"unsafe"

	"github.com/godlpack/godlpack/scalar"
)

// A C gdl_scalar, which gdl_parse_scalar writes, is a [scalar.Scalar] field
// for field, and its GDL_SCALAR_ kinds are scalar's Kinds: package pymodule
// and godlpack's own functions read what C wrote as a Scalar. Each line fails
// to compile (a constant overflows) when the two part.
const (
	_ = unsafe.Sizeof(C.gdl_scalar{}) - unsafe.Sizeof(scalar.Scalar{}) + (unsafe.Sizeof(scalar.Scalar{}) - unsafe.Sizeof(C.gdl_scalar{}))
	_ = unsafe.Offsetof(C.gdl_scalar{}.ival) - unsafe.Offsetof(scalar.Scalar{}.Int) + (unsafe.Offsetof(scalar.Scalar{}.Int) - unsafe.Offsetof(C.gdl_scalar{}.ival))
	_ = unsafe.Offsetof(C.gdl_scalar{}.uval) - unsafe.Offsetof(scalar.Scalar{}.Uint) + (unsafe.Offsetof(scalar.Scalar{}.Uint) - unsafe.Offsetof(C.gdl_scalar{}.uval))
	_ = unsafe.Offsetof(C.gdl_scalar{}.re) - unsafe.Offsetof(scalar.Scalar{}.Real) + (unsafe.Offsetof(scalar.Scalar{}.Real) - unsafe.Offsetof(C.gdl_scalar{}.re))
	_ = unsafe.Offsetof(C.gdl_scalar{}.im) - unsafe.Offsetof(scalar.Scalar{}.Imag) + (unsafe.Offsetof(scalar.Scalar{}.Imag) - unsafe.Offsetof(C.gdl_scalar{}.im))
	_ = uint8(C.GDL_SCALAR_BOOL) - uint8(scalar.Bool) + (uint8(scalar.Bool) - uint8(C.GDL_SCALAR_BOOL))
	_ = uint8(C.GDL_SCALAR_INT) - uint8(scalar.Int) + (uint8(scalar.Int) - uint8(C.GDL_SCALAR_INT))
	_ = uint8(C.GDL_SCALAR_UINT) - uint8(scalar.Uint) + (uint8(scalar.Uint) - uint8(C.GDL_SCALAR_UINT))
	_ = uint8(C.GDL_SCALAR_FLOAT) - uint8(scalar.Float) + (uint8(scalar.Float) - uint8(C.GDL_SCALAR_FLOAT))
	_ = uint8(C.GDL_SCALAR_COMPLEX) - uint8(scalar.Complex) + (uint8(scalar.Complex) - uint8(C.GDL_SCALAR_COMPLEX))
	_ = uint8(C.GDL_SCALAR_BIGINT) - uint8(scalar.BigInt) + (uint8(scalar.BigInt) - uint8(C.GDL_SCALAR_BIGINT))
)
