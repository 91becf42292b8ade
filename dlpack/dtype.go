package dlpack

import (
	"errors"
	"strconv"
	"strings"

	"github.com/godlpack/godlpack/internal/fmt"
)

// Code is the type code of a [DataType]. Its values are those of the C enum
// DLDataTypeCode; it is stored in a uint8.
type Code uint8

// Type codes of DLPack 1.3, and [Bcomplex], which dmlc/dlpack's main branch
// added after it without changing the minor version.
const (
	Int               Code = 0
	UInt              Code = 1
	Float             Code = 2
	OpaqueHandle      Code = 3
	Bfloat            Code = 4
	Complex           Code = 5
	CodeBool          Code = 6 // not [Bool], which names the bool [DataType]
	Float8E3M4        Code = 7
	Float8E4M3        Code = 8
	Float8E4M3B11FNUZ Code = 9
	Float8E4M3FN      Code = 10
	Float8E4M3FNUZ    Code = 11
	Float8E5M2        Code = 12
	Float8E5M2FNUZ    Code = 13
	Float8E8M0FNU     Code = 14
	Float6E2M3FN      Code = 15
	Float6E3M2FN      Code = 16
	Float4E2M1FN      Code = 17
	Bcomplex          Code = 18 // two bfloat16, real then imaginary
)

// DataType describes one element: a type code, a width in bits, and a
// number of vector lanes. It has the layout of the C struct DLDataType.
//
// An element of a vector type (Lanes > 1) holds [DataType.Lanes] values of
// its lane type, the same DataType with one lane, in Bits*Lanes bits:
// PyTorch's float4_e2m1fn_x2 is DataType{Float4E2M1FN, 4, 2}, one byte
// holding two float4 values. Shapes and strides count elements, never lanes.
type DataType struct {
	Code  Code   // the type code
	Bits  uint8  // the width of one lane in bits
	Lanes uint16 // the number of vector lanes, 1 for a scalar type
}

// The classic data types of the table, each with one lane. The float8,
// float6 and float4 types have no variables because their names would
// collide with their type codes; use [ParseDataType] or a [DataType] literal.
var (
	Bool       = DataType{CodeBool, 8, 1}
	Int8       = DataType{Int, 8, 1}
	Int16      = DataType{Int, 16, 1}
	Int32      = DataType{Int, 32, 1}
	Int64      = DataType{Int, 64, 1}
	Uint8      = DataType{UInt, 8, 1}
	Uint16     = DataType{UInt, 16, 1}
	Uint32     = DataType{UInt, 32, 1}
	Uint64     = DataType{UInt, 64, 1}
	Float16    = DataType{Float, 16, 1}
	Float32    = DataType{Float, 32, 1}
	Float64    = DataType{Float, 64, 1}
	Bfloat16   = DataType{Bfloat, 16, 1}
	Complex32  = DataType{Complex, 32, 1} // two float16
	Complex64  = DataType{Complex, 64, 1}
	Complex128 = DataType{Complex, 128, 1}
	Bcomplex32 = DataType{Bcomplex, 32, 1} // two bfloat16
)

// ErrUnknownDataType is wrapped by every error about a data type that is
// not in the table of DLPack 1.3 data types.
var ErrUnknownDataType = errors.New("unknown data type")

// dtypeTable is the table of data types, in the order DataTypes returns.
// Each row is unique by name and by DataType. It is the only statement of
// which data types exist: Known reads it, and so does C code, through
// dtypes.h, which go generate writes from it (a new row needs go generate;
// TestDTypesHeader fails while the header is stale).
//
//go:generate go test -run ^TestDTypesHeader$ . -args -update
var dtypeTable = [...]struct {
	name string
	dt   DataType
}{
	{"bool", Bool},
	{"int8", Int8},
	{"int16", Int16},
	{"int32", Int32},
	{"int64", Int64},
	{"uint8", Uint8},
	{"uint16", Uint16},
	{"uint32", Uint32},
	{"uint64", Uint64},
	{"float16", Float16},
	{"float32", Float32},
	{"float64", Float64},
	{"bfloat16", Bfloat16},
	{"complex32", Complex32},
	{"complex64", Complex64},
	{"complex128", Complex128},
	{"float8_e3m4", DataType{Float8E3M4, 8, 1}},
	{"float8_e4m3", DataType{Float8E4M3, 8, 1}},
	{"float8_e4m3b11fnuz", DataType{Float8E4M3B11FNUZ, 8, 1}},
	{"float8_e4m3fn", DataType{Float8E4M3FN, 8, 1}},
	{"float8_e4m3fnuz", DataType{Float8E4M3FNUZ, 8, 1}},
	{"float8_e5m2", DataType{Float8E5M2, 8, 1}},
	{"float8_e5m2fnuz", DataType{Float8E5M2FNUZ, 8, 1}},
	{"float8_e8m0fnu", DataType{Float8E8M0FNU, 8, 1}},
	{"float6_e2m3fn", DataType{Float6E2M3FN, 6, 1}},
	{"float6_e3m2fn", DataType{Float6E3M2FN, 6, 1}},
	{"float4_e2m1fn", DataType{Float4E2M1FN, 4, 1}},
	{"bcomplex32", Bcomplex32},
}

// DataTypes returns every data type of the table, each with one lane, in a
// fixed order: bool, the integers, the floats, bfloat16, the complex
// types, then the float8, float6 and float4 types by type code, then
// bcomplex32. The slice
// is new on each call, so the caller may modify it.
func DataTypes() []DataType {
	s := make([]DataType, len(dtypeTable))
	for i, r := range dtypeTable {
		s[i] = r.dt
	}
	return s
}

// ParseDataType returns the data type with the given name: a table name,
// such as "float32" or "float8_e4m3fn", or the name of a vector type as
// TVM spells it, a table name followed by "x" and a lane count from 2 to
// 65535 in decimal without leading zeros, such as "float32x4" or
// "float4_e2m1fnx2". Names are case-sensitive. A vector type whose
// elements are not whole bytes, such as "float6_e2m3fnx2", is refused like
// any other name; every error wraps [ErrUnknownDataType].
func ParseDataType(name string) (DataType, error) {
	if dt, ok := lookupName(name); ok {
		return dt, nil
	}
	if i := strings.LastIndexByte(name, 'x'); i > 0 {
		lane, ok := lookupName(name[:i])
		count := name[i+1:]
		n, err := strconv.ParseUint(count, 10, 16)
		if ok && err == nil && n >= 2 && count[0] != '0' {
			dt := DataType{lane.Code, lane.Bits, uint16(n)}
			if err := dt.Check(); err != nil {
				return DataType{}, fmt.Errorf("dlpack: %w %q: %d lanes of %d bits are not whole bytes", ErrUnknownDataType, name, n, lane.Bits)
			}
			return dt, nil
		}
	}
	return DataType{}, fmt.Errorf("dlpack: %w %q", ErrUnknownDataType, name)
}

func lookupName(name string) (DataType, bool) {
	for _, r := range dtypeTable {
		if r.name == name {
			return r.dt, true
		}
	}
	return DataType{}, false
}

// Name returns the name of dt, which [ParseDataType] turns back into dt:
// the table name for a type with one lane, and for a vector type that
// [DataType.Check] accepts, the table name of its lane type followed by "x"
// and the lane count, such as "float32x4". It returns false for any other dt.
func (dt DataType) Name() (string, bool) {
	if dt.Lanes != 1 {
		if dt.Check() != nil {
			return "", false
		}
		name, _ := dt.Lane().Name()
		return name + "x" + strconv.Itoa(int(dt.Lanes)), true
	}
	for _, r := range dtypeTable {
		if r.dt == dt {
			return r.name, true
		}
	}
	return "", false
}

// Lane returns the type of one lane of dt: dt with one lane.
func (dt DataType) Lane() DataType {
	dt.Lanes = 1
	return dt
}

// ComplexPart returns the real type of each of the two parts (real, then
// imaginary) of an element of the complex type dt: float16 for complex32,
// bfloat16 for bcomplex32, float32 for complex64, float64 for complex128.
func (dt DataType) ComplexPart() DataType {
	if dt.Code == Bcomplex {
		return DataType{Bfloat, dt.Bits / 2, 1}
	}
	return DataType{Float, dt.Bits / 2, 1}
}

// String returns the name of dt (see [DataType.Name]), or
// "dtype(code=C, bits=B, lanes=L)" for a data type [DataType.Check] refuses.
func (dt DataType) String() string {
	if name, ok := dt.Name(); ok {
		return name
	}
	return "dtype(code=" + strconv.Itoa(int(dt.Code)) +
		", bits=" + strconv.Itoa(int(dt.Bits)) +
		", lanes=" + strconv.Itoa(int(dt.Lanes)) + ")"
}

// Known reports whether dt is in the table, which requires one lane; for
// a vector type, dt.Lane().Known() says whether its lane type is. It looks
// dt up in a set built from the table once, because every import asks it.
func (dt DataType) Known() bool {
	return dt.Lanes == 1 && knownWidths[dt.Code][dt.Bits/64]&(1<<(dt.Bits%64)) != 0
}

// knownWidths holds, for each type code, the set of widths the table gives
// it, as 256 bits: Known's lookup.
var knownWidths = func() (set [256][4]uint64) {
	for _, r := range dtypeTable {
		set[r.dt.Code][r.dt.Bits/64] |= 1 << (r.dt.Bits % 64)
	}
	return set
}()

// SubByte reports whether an element of dt, all its lanes together, is
// narrower than a byte, as a float4_e2m1fn is and a float4_e2m1fn x 2 is
// not.
func (dt DataType) SubByte() bool { return int(dt.Bits)*int(dt.Lanes) < 8 }

// ItemSize returns the number of bytes one element of dt occupies when
// elements are byte-addressable: Bits*Lanes/8 for whole-byte elements, and
// one byte for a sub-byte element, which is byte-addressable only when
// padded (see [IsSubbyteTypePadded]). It returns 0 when an element has no
// whole-byte size, such as for Bits == 0, Lanes == 0 or a 12-bit element.
// For the size of a packed sub-byte element, which is 0, use
// [DataType.StorageSize].
func (dt DataType) ItemSize() int {
	return dt.StorageSize(true)
}

// StorageSize is like [DataType.ItemSize] but says whether sub-byte elements
// are padded to a byte each. When they are not (packed storage), elements of
// a sub-byte type have no byte address of their own and StorageSize returns
// 0.
func (dt DataType) StorageSize(padded bool) int {
	if dt.Bits == 0 || dt.Lanes == 0 {
		return 0
	}
	if dt.SubByte() {
		if padded {
			return 1
		}
		return 0
	}
	bits := int(dt.Bits) * int(dt.Lanes)
	if bits%8 != 0 {
		return 0
	}
	return bits / 8
}

// Check returns nil if dt is in the table, or is a vector type whose lane
// type is in the table and whose elements are whole bytes (Bits*Lanes a
// multiple of 8). Otherwise it returns an error that names dt's code, bits
// and lanes and wraps [ErrUnknownDataType].
func (dt DataType) Check() error {
	if dt.Known() || dt.Lanes > 1 && dt.Lane().Known() && int(dt.Bits)*int(dt.Lanes)%8 == 0 {
		return nil
	}
	return fmt.Errorf("dlpack: %w: code=%d, bits=%d, lanes=%d", ErrUnknownDataType, dt.Code, dt.Bits, dt.Lanes)
}

// MinVersion returns the oldest DLPack version able to describe a tensor
// of data type dt on device dev: 0.0 for the classic data types and
// devices, 1.0 for [MAIA] devices, 1.1 for the float8, float6 and float4
// type codes, 1.2 for [Trn] devices, and [Current] for the [Bcomplex] code and
// the [TPU], [TPUHost] and [Ascend] devices, which came after 1.3 without a new
// minor version; the greater requirement wins. It
// depends on the type code alone, so a vector type needs what its lane
// type needs.
//
// A legacy "dltensor" capsule speaks a 0.x ABI, so a tensor may be
// exported that way only if MinVersion(dt, dev).Major == 0. Because no
// version can promise to understand them, device types DLPack 1.3 does not
// define and type codes above [Float4E2M1FN] give [Current].
func MinVersion(dt DataType, dev Device) Version {
	var v Version
	switch {
	case dt.Code > Float4E2M1FN:
		v = Current
	case dt.Code >= Float8E3M4:
		v = Version{1, 1}
	}
	var d Version
	switch {
	case !dev.Type.Known() || dev.Type > Trn:
		d = Current
	case dev.Type == Trn:
		d = Version{1, 2}
	case dev.Type == MAIA:
		d = Version{1, 0}
	}
	if v.Less(d) {
		return d
	}
	return v
}
