package pymodule

import (
	"reflect"
)

// A kind is what crosses between Python and a bound function's Go
// parameter or result: a number of a width, a string, bytes, a tensor, an
// object. kinds is their one table. kinds.h, the C enum function_args.c
// and function_results.c switch on, is generated from it (go generate;
// TestKindsHeader fails while it is stale), and TestKindSwitches checks that
// each of their switches on kinds names every kind it must.
//
// Adding a kind:
//  1. a constant below, and its row in kinds;
//  2. go generate, which writes kinds.h;
//  3. its conversions: from Python in gdl_convert_arg (function_args.c), to
//     Python in gdl_convert_result (function_results.c) (unless it is a
//     parameter's only, as kindCallback), and in gdl_drop_results when a
//     result of it holds memory or a reference (owns);
//  4. where Go reads and writes its value in a gdl_value (argAt, decoder and
//     encoder in function_values.go), unless its size says it all (a
//     number's bits are copied as they are);
//  5. the Go types that map to it: goKinds, or paramOf and resultOf.
type kind uint8

const (
	kindNone kind = iota
	kindBool
	kindInt8
	kindInt16
	kindInt32
	kindInt64
	kindUint8
	kindUint16
	kindUint32
	kindUint64
	kindFloat32
	kindFloat64
	kindComplex64
	kindComplex128
	kindString
	kindBytes
	kindTensor
	kindObject
	kindInstance // a *T of a bound class: its instance's slot as an argument, the instance as a result
	kindCallback // a Go func value: a Python callable as an argument (never a result)
	kindNumber   // a scalar.Scalar: any Python number, and a result whose Python type its Kind chooses
)

// A kindRow says what the binder does with one kind.
type kindRow struct {
	c string // its name in kinds.h
	// size is the bytes of its value in a gdl_value, copied as they are
	// between C and Go; 0 for a kind whose own code moves it.
	size uintptr
	// param says what a parameter of the kind takes, in a TypeError: "an int".
	param string
	// stubParam and stubResult are its Python types in the module's stub.
	stubParam, stubResult string
	// owns says whether a result of the kind holds C memory or a reference
	// until it reaches Python (drop_results lets go of it otherwise).
	owns bool
}

var kinds = [...]kindRow{
	kindNone:       {c: "GDL_KIND_NONE", param: "an object", stubParam: "Any", stubResult: "Any"},
	kindBool:       {c: "GDL_KIND_BOOL", size: 1, param: "a bool", stubParam: "bool", stubResult: "bool"},
	kindInt8:       {c: "GDL_KIND_INT8", size: 1, param: "an int", stubParam: intParam, stubResult: "int"},
	kindInt16:      {c: "GDL_KIND_INT16", size: 2, param: "an int", stubParam: intParam, stubResult: "int"},
	kindInt32:      {c: "GDL_KIND_INT32", size: 4, param: "an int", stubParam: intParam, stubResult: "int"},
	kindInt64:      {c: "GDL_KIND_INT64", size: 8, param: "an int", stubParam: intParam, stubResult: "int"},
	kindUint8:      {c: "GDL_KIND_UINT8", size: 1, param: "an int", stubParam: intParam, stubResult: "int"},
	kindUint16:     {c: "GDL_KIND_UINT16", size: 2, param: "an int", stubParam: intParam, stubResult: "int"},
	kindUint32:     {c: "GDL_KIND_UINT32", size: 4, param: "an int", stubParam: intParam, stubResult: "int"},
	kindUint64:     {c: "GDL_KIND_UINT64", size: 8, param: "an int", stubParam: intParam, stubResult: "int"},
	kindFloat32:    {c: "GDL_KIND_FLOAT32", size: 4, param: "a float", stubParam: "float", stubResult: "float"},
	kindFloat64:    {c: "GDL_KIND_FLOAT64", size: 8, param: "a float", stubParam: "float", stubResult: "float"},
	kindComplex64:  {c: "GDL_KIND_COMPLEX64", size: 8, param: "a complex", stubParam: "complex", stubResult: "complex"},
	kindComplex128: {c: "GDL_KIND_COMPLEX128", size: 16, param: "a complex", stubParam: "complex", stubResult: "complex"},
	kindString:     {c: "GDL_KIND_STRING", param: "a str", stubParam: "str", stubResult: "str", owns: true},
	kindBytes:      {c: "GDL_KIND_BYTES", param: "bytes", stubParam: "bytes", stubResult: "bytes", owns: true},
	// A tensor result's Python type is the one its function returns (stubResultOf).
	kindTensor: {c: "GDL_KIND_TENSOR", param: "a tensor (an object with __dlpack__)", stubParam: "SupportsDLPack",
		stubResult: "Tensor", owns: true},
	kindObject: {c: "GDL_KIND_OBJECT", param: "an object", stubParam: "Any", stubResult: "Any", owns: true},
	// An instance's class names its parameters' and results' types (classOf).
	kindInstance: {c: "GDL_KIND_INSTANCE", size: 4, param: "an instance", stubParam: "Any", stubResult: "Any", owns: true},
	kindCallback: {c: "GDL_KIND_CALLBACK", param: "a callable", stubParam: "Callable[..., Any]", stubResult: "Any"},
	kindNumber: {c: "GDL_KIND_NUMBER", size: 40, param: "a number", stubParam: "complex | SupportsIndex",
		stubResult: "int | float | complex"},
}

// intParam is what an int parameter's stub takes: an int, or anything with __index__.
const intParam = "int | SupportsIndex"

// goKinds is the kind of each Go type of a number, bool or string (a Go int
// is an int64, a uint or uintptr a uint64); []byte is kindBytes.
var goKinds = map[reflect.Kind]kind{
	reflect.Bool:       kindBool,
	reflect.Int8:       kindInt8,
	reflect.Int16:      kindInt16,
	reflect.Int32:      kindInt32,
	reflect.Int64:      kindInt64,
	reflect.Int:        kindInt64,
	reflect.Uint8:      kindUint8,
	reflect.Uint16:     kindUint16,
	reflect.Uint32:     kindUint32,
	reflect.Uint64:     kindUint64,
	reflect.Uint:       kindUint64,
	reflect.Uintptr:    kindUint64,
	reflect.Float32:    kindFloat32,
	reflect.Float64:    kindFloat64,
	reflect.Complex64:  kindComplex64,
	reflect.Complex128: kindComplex128,
	reflect.String:     kindString,
}

// scalarKind is the kind of a Go number, bool or string type, or of []byte.
func scalarKind(t reflect.Type) kind {
	if t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8 {
		return kindBytes
	}
	return goKinds[t.Kind()] // kindNone for any other type
}
