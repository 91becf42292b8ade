package dlpack

import (
	"errors"
	"strings"
	"testing"
)

var dtypeRows = []struct {
	name     string
	dt       DataType
	itemSize int // padded, for the sub-byte types
	packed   int
	min      Version
}{
	{"bool", DataType{6, 8, 1}, 1, 1, Version{}},
	{"int8", DataType{0, 8, 1}, 1, 1, Version{}},
	{"int16", DataType{0, 16, 1}, 2, 2, Version{}},
	{"int32", DataType{0, 32, 1}, 4, 4, Version{}},
	{"int64", DataType{0, 64, 1}, 8, 8, Version{}},
	{"uint8", DataType{1, 8, 1}, 1, 1, Version{}},
	{"uint16", DataType{1, 16, 1}, 2, 2, Version{}},
	{"uint32", DataType{1, 32, 1}, 4, 4, Version{}},
	{"uint64", DataType{1, 64, 1}, 8, 8, Version{}},
	{"float16", DataType{2, 16, 1}, 2, 2, Version{}},
	{"float32", DataType{2, 32, 1}, 4, 4, Version{}},
	{"float64", DataType{2, 64, 1}, 8, 8, Version{}},
	{"bfloat16", DataType{4, 16, 1}, 2, 2, Version{}},
	{"complex32", DataType{5, 32, 1}, 4, 4, Version{}},
	{"complex64", DataType{5, 64, 1}, 8, 8, Version{}},
	{"complex128", DataType{5, 128, 1}, 16, 16, Version{}},
	{"float8_e3m4", DataType{7, 8, 1}, 1, 1, Version{1, 1}},
	{"float8_e4m3", DataType{8, 8, 1}, 1, 1, Version{1, 1}},
	{"float8_e4m3b11fnuz", DataType{9, 8, 1}, 1, 1, Version{1, 1}},
	{"float8_e4m3fn", DataType{10, 8, 1}, 1, 1, Version{1, 1}},
	{"float8_e4m3fnuz", DataType{11, 8, 1}, 1, 1, Version{1, 1}},
	{"float8_e5m2", DataType{12, 8, 1}, 1, 1, Version{1, 1}},
	{"float8_e5m2fnuz", DataType{13, 8, 1}, 1, 1, Version{1, 1}},
	{"float8_e8m0fnu", DataType{14, 8, 1}, 1, 1, Version{1, 1}},
	{"float6_e2m3fn", DataType{15, 6, 1}, 1, 0, Version{1, 1}},
	{"float6_e3m2fn", DataType{16, 6, 1}, 1, 0, Version{1, 1}},
	{"float4_e2m1fn", DataType{17, 4, 1}, 1, 0, Version{1, 1}},
	{"bcomplex32", DataType{18, 32, 1}, 4, 4, Version{1, 3}},
}

var (
	float4   = DataType{Float4E2M1FN, 4, 1}
	float4x2 = DataType{Float4E2M1FN, 4, 2} // PyTorch's float4_e2m1fn_x2
	float6x4 = DataType{Float6E2M3FN, 6, 4} // 3-byte elements
	f32x4    = DataType{Float, 32, 4}
)

func TestDataTypeTable(t *testing.T) {
	all := DataTypes()
	if len(all) != len(dtypeRows) {
		t.Fatalf("DataTypes() has %d entries, want %d", len(all), len(dtypeRows))
	}
	for i, r := range dtypeRows {
		if all[i] != r.dt {
			t.Errorf("DataTypes()[%d] = %v, want %v", i, all[i], r.dt)
		}
		got, err := ParseDataType(r.name)
		if err != nil || got != r.dt {
			t.Errorf("ParseDataType(%q) = %v, %v; want %v, nil", r.name, got, err, r.dt)
		}
		if name, ok := r.dt.Name(); !ok || name != r.name {
			t.Errorf("%#v.Name() = %q, %v; want %q, true", r.dt, name, ok, r.name)
		}
		if s := r.dt.String(); s != r.name {
			t.Errorf("%#v.String() = %q, want %q", r.dt, s, r.name)
		}
		if !r.dt.Known() || r.dt.Check() != nil {
			t.Errorf("%v: Known() = %v, Check() = %v", r.dt, r.dt.Known(), r.dt.Check())
		}
		if n := r.dt.ItemSize(); n != r.itemSize {
			t.Errorf("%v.ItemSize() = %d, want %d", r.dt, n, r.itemSize)
		}
		if n := r.dt.StorageSize(true); n != r.itemSize {
			t.Errorf("%v.StorageSize(true) = %d, want %d", r.dt, n, r.itemSize)
		}
		if n := r.dt.StorageSize(false); n != r.packed {
			t.Errorf("%v.StorageSize(false) = %d, want %d", r.dt, n, r.packed)
		}
		if sub := r.dt.SubByte(); sub != (r.dt.Bits < 8) {
			t.Errorf("%v.SubByte() = %v", r.dt, sub)
		}
		if v := MinVersion(r.dt, Device{CPU, 0}); v != r.min {
			t.Errorf("MinVersion(%v, cpu:0) = %v, want %v", r.dt, v, r.min)
		}
	}
	// The slice is the caller's to modify.
	all[0] = DataType{}
	if DataTypes()[0] != Bool {
		t.Error("modifying the result of DataTypes changed the table")
	}
}

func TestDataTypeVars(t *testing.T) {
	vars := map[string]DataType{
		"bool": Bool, "int8": Int8, "int16": Int16, "int32": Int32, "int64": Int64,
		"uint8": Uint8, "uint16": Uint16, "uint32": Uint32, "uint64": Uint64,
		"float16": Float16, "float32": Float32, "float64": Float64,
		"bfloat16": Bfloat16, "complex32": Complex32, "complex64": Complex64, "complex128": Complex128,
	}
	for name, dt := range vars {
		if got, _ := ParseDataType(name); got != dt {
			t.Errorf("variable for %s = %#v, table has %#v", name, dt, got)
		}
	}
}

func TestDataTypeUnknown(t *testing.T) {
	tests := []struct {
		dt       DataType
		str      string
		itemSize int
	}{
		{DataType{Float, 32, 0}, "dtype(code=2, bits=32, lanes=0)", 0},
		{DataType{Float, 24, 1}, "dtype(code=2, bits=24, lanes=1)", 3},
		{DataType{Int, 12, 1}, "dtype(code=0, bits=12, lanes=1)", 0},
		{DataType{Int, 0, 1}, "dtype(code=0, bits=0, lanes=1)", 0},
		{DataType{OpaqueHandle, 64, 1}, "dtype(code=3, bits=64, lanes=1)", 8},
		{DataType{CodeBool, 1, 1}, "dtype(code=6, bits=1, lanes=1)", 1},
		{DataType{Float4E2M1FN, 4, 3}, "dtype(code=17, bits=4, lanes=3)", 0},
		{DataType{Float6E2M3FN, 6, 2}, "dtype(code=15, bits=6, lanes=2)", 0},
		{DataType{Float6E3M2FN, 6, 5}, "dtype(code=16, bits=6, lanes=5)", 0},
		{DataType{Float4E2M1FN, 4, 0}, "dtype(code=17, bits=4, lanes=0)", 0},
		{DataType{Float4E2M1FN, 8, 1}, "dtype(code=17, bits=8, lanes=1)", 1},
		{DataType{Float4E2M1FN, 8, 2}, "dtype(code=17, bits=8, lanes=2)", 2},
		{DataType{Int, 12, 2}, "dtype(code=0, bits=12, lanes=2)", 3},
		{DataType{18, 8, 4}, "dtype(code=18, bits=8, lanes=4)", 4},
		{DataType{18, 8, 1}, "dtype(code=18, bits=8, lanes=1)", 1},
		{DataType{255, 255, 65535}, "dtype(code=255, bits=255, lanes=65535)", 0},
	}
	for _, tt := range tests {
		if _, ok := tt.dt.Name(); ok {
			t.Errorf("%#v.Name() reports a table name", tt.dt)
		}
		if tt.dt.Known() {
			t.Errorf("%#v.Known() = true", tt.dt)
		}
		if s := tt.dt.String(); s != tt.str {
			t.Errorf("String() = %q, want %q", s, tt.str)
		}
		if n := tt.dt.ItemSize(); n != tt.itemSize {
			t.Errorf("%v.ItemSize() = %d, want %d", tt.dt, n, tt.itemSize)
		}
		err := tt.dt.Check()
		if !errors.Is(err, ErrUnknownDataType) {
			t.Errorf("%v.Check() = %v, want an ErrUnknownDataType", tt.dt, err)
			continue
		}
		// The message must say what was wrong with what value.
		inner := strings.TrimSuffix(strings.TrimPrefix(tt.str, "dtype("), ")")
		if !strings.Contains(err.Error(), inner) {
			t.Errorf("Check() error %q does not name %q", err, inner)
		}
	}
}

func TestParseDataTypeErrors(t *testing.T) {
	for _, name := range []string{"", "float", "Float32", "float32 ", "f4", "int128", "bool8", "float8", "complex16",
		// Vector names: a lane count from 2 to 65535, in whole bytes.
		"float32x1", "float32x0", "float32x", "float32x04", "float32x65536", "float32x-2", "float32x+2", "float32x 2",
		"float32X2", "float32x2x2", "x2", "xfloat32", "float6_e2m3fnx2", "float4_e2m1fnx3", "float4_e2m1fn_x2",
		"float24x2", "complexx2"} {
		dt, err := ParseDataType(name)
		if err == nil {
			t.Errorf("ParseDataType(%q) = %v, want an error", name, dt)
			continue
		}
		if !errors.Is(err, ErrUnknownDataType) {
			t.Errorf("ParseDataType(%q) error %v does not wrap ErrUnknownDataType", name, err)
		}
		if want := `"` + name + `"`; !strings.Contains(err.Error(), want) {
			t.Errorf("ParseDataType(%q) error %q does not name the value", name, err)
		}
		if dt != (DataType{}) {
			t.Errorf("ParseDataType(%q) returned %v with its error", name, dt)
		}
	}
}

func TestMinVersion(t *testing.T) {
	f8 := DataType{Float8E4M3FN, 8, 1}
	f4 := DataType{Float4E2M1FN, 4, 1}
	tests := []struct {
		dt   DataType
		dev  Device
		want Version
	}{
		{Float32, Device{CPU, 0}, Version{0, 0}},
		{Bool, Device{CUDA, 1}, Version{0, 0}},
		{Complex128, Device{Hexagon, 0}, Version{0, 0}},
		{Bfloat16, Device{WebGPU, 0}, Version{0, 0}},
		{DataType{OpaqueHandle, 64, 1}, Device{CPU, 0}, Version{0, 0}},
		{DataType{Float, 32, 4}, Device{CPU, 0}, Version{0, 0}},
		{DataType{Float4E2M1FN, 4, 2}, Device{CPU, 0}, Version{1, 1}},
		{DataType{Float8E5M2, 8, 4}, Device{Trn, 0}, Version{1, 2}},
		{DataType{18, 4, 2}, Device{CPU, 0}, Current},
		{Float32, Device{MAIA, 0}, Version{1, 0}},
		{f8, Device{CPU, 0}, Version{1, 1}},
		{f4, Device{CUDA, 0}, Version{1, 1}},
		{f8, Device{MAIA, 0}, Version{1, 1}},
		{Float32, Device{Trn, 0}, Version{1, 2}},
		{f4, Device{Trn, 0}, Version{1, 2}},
		{DataType{18, 8, 1}, Device{CPU, 0}, Current},
		{Float32, Device{5, 0}, Current},
		{Float32, Device{19, 0}, Current},
		{Float32, Device{-1, 0}, Current},
	}
	for _, tt := range tests {
		got := MinVersion(tt.dt, tt.dev)
		if got != tt.want {
			t.Errorf("MinVersion(%v, %v) = %v, want %v", tt.dt, tt.dev, got, tt.want)
		}
		if Current.Less(got) {
			t.Errorf("MinVersion(%v, %v) = %v is newer than Current", tt.dt, tt.dev, got)
		}
	}
}

func TestVersion(t *testing.T) {
	tests := []struct {
		v, w Version
		less bool
	}{
		{Version{0, 8}, Version{1, 0}, true},
		{Version{1, 0}, Version{0, 8}, false},
		{Version{1, 2}, Version{1, 3}, true},
		{Version{1, 3}, Version{1, 3}, false},
		{Version{1, 10}, Version{1, 3}, false},
		{Version{2, 0}, Version{1, 99}, false},
	}
	for _, tt := range tests {
		if got := tt.v.Less(tt.w); got != tt.less {
			t.Errorf("%v.Less(%v) = %v, want %v", tt.v, tt.w, got, tt.less)
		}
	}
	for _, tt := range []struct {
		v    Version
		want string
	}{
		{Current, "1.3"},
		{Version{0, 0}, "0.0"},
		{Version{4294967295, 10}, "4294967295.10"},
	} {
		if s := tt.v.String(); s != tt.want {
			t.Errorf("String() = %q, want %q", s, tt.want)
		}
	}
}

func TestDevice(t *testing.T) {
	tests := []struct {
		t      DeviceType
		name   string
		onHost bool
	}{
		{CPU, "cpu", true},
		{CUDA, "cuda", false},
		{CUDAHost, "cuda_host", true},
		{OpenCL, "opencl", false},
		{Vulkan, "vulkan", false},
		{Metal, "metal", false},
		{VPI, "vpi", false},
		{ROCM, "rocm", false},
		{ROCMHost, "rocm_host", true},
		{ExtDev, "ext_dev", false},
		{CUDAManaged, "cuda_managed", true},
		{OneAPI, "oneapi", false},
		{WebGPU, "webgpu", false},
		{Hexagon, "hexagon", false},
		{MAIA, "maia", false},
		{Trn, "trn", false},
		{0, "device_type(0)", false},
		{5, "device_type(5)", false},
		{6, "device_type(6)", false},
		{42, "device_type(42)", false},
		{-7, "device_type(-7)", false},
	}
	for _, tt := range tests {
		if s := tt.t.String(); s != tt.name {
			t.Errorf("DeviceType(%d).String() = %q, want %q", int32(tt.t), s, tt.name)
		}
		if got := tt.t.CPUAccessible(); got != tt.onHost {
			t.Errorf("%v.CPUAccessible() = %v, want %v", tt.t, got, tt.onHost)
		}
		if known := !strings.HasPrefix(tt.name, "device_type("); tt.t.Known() != known {
			t.Errorf("%v.Known() = %v", tt.t, tt.t.Known())
		}
	}
	if s := (Device{CPU, 0}).String(); s != "cpu:0" {
		t.Errorf("String() = %q", s)
	}
	if s := (Device{CUDA, 3}).String(); s != "cuda:3" {
		t.Errorf("String() = %q", s)
	}
	if s := (Device{9000, -1}).String(); s != "device_type(9000):-1" {
		t.Errorf("String() = %q", s)
	}
}

func TestFlags(t *testing.T) {
	tests := []struct {
		f    Flags
		want string
	}{
		{0, "0"},
		{ReadOnly, "READ_ONLY"},
		{IsCopied, "IS_COPIED"},
		{IsSubbyteTypePadded, "IS_SUBBYTE_TYPE_PADDED"},
		{ReadOnly | IsCopied, "READ_ONLY|IS_COPIED"},
		{ReadOnly | IsCopied | IsSubbyteTypePadded, "READ_ONLY|IS_COPIED|IS_SUBBYTE_TYPE_PADDED"},
		{1 << 3, "0x8"},
		{IsCopied | 1<<63, "IS_COPIED|0x8000000000000000"},
	}
	for _, tt := range tests {
		if s := tt.f.String(); s != tt.want {
			t.Errorf("Flags(%#x).String() = %q, want %q", uint64(tt.f), s, tt.want)
		}
	}
	f := ReadOnly | IsSubbyteTypePadded
	if !f.Has(ReadOnly) || f.Has(IsCopied) || !f.Has(ReadOnly|IsSubbyteTypePadded) || f.Has(ReadOnly|IsCopied) {
		t.Errorf("Has on %v is wrong", f)
	}
}

// TestKnownMatchesTable checks Known, which decides by code and width,
// against the table for every code, width and a few lane counts, and that
// Check, Name and ParseDataType agree on every type.
func TestKnownMatchesTable(t *testing.T) {
	for code := 0; code < 256; code++ {
		for bits := 0; bits < 256; bits++ {
			for _, lanes := range []uint16{0, 1, 2, 3, 4, 65535} {
				dt := DataType{Code(code), uint8(bits), lanes}
				name, named := dt.Name()
				if dt.Known() != (named && lanes == 1) {
					t.Errorf("%v.Known() = %v, but Name() says %v", dt, dt.Known(), named)
				}
				if (dt.Check() == nil) != named {
					t.Errorf("%v.Check() = %v, but Name() says %v", dt, dt.Check(), named)
				}
				if !named {
					continue
				}
				if back, err := ParseDataType(name); err != nil || back != dt {
					t.Errorf("ParseDataType(%q) = %v, %v; want %#v", name, back, err, dt)
				}
			}
		}
	}
}

func TestVectorDataTypes(t *testing.T) {
	tests := []struct {
		name     string
		dt       DataType
		itemSize int // padded or not: a vector element is whole bytes
	}{
		{"float4_e2m1fnx2", DataType{Float4E2M1FN, 4, 2}, 1},
		{"float4_e2m1fnx4", DataType{Float4E2M1FN, 4, 4}, 2},
		{"float6_e2m3fnx4", DataType{Float6E2M3FN, 6, 4}, 3},
		{"float6_e3m2fnx8", DataType{Float6E3M2FN, 6, 8}, 6},
		{"float8_e4m3fnx2", DataType{Float8E4M3FN, 8, 2}, 2},
		{"float32x4", DataType{Float, 32, 4}, 16},
		{"float64x2", DataType{Float, 64, 2}, 16},
		{"complex32x2", DataType{Complex, 32, 2}, 8},
		{"boolx8", DataType{CodeBool, 8, 8}, 8},
		{"uint8x65535", DataType{UInt, 8, 65535}, 65535},
		{"complex128x65535", DataType{Complex, 128, 65535}, 16 * 65535},
	}
	for _, tt := range tests {
		dt := tt.dt
		lane := DataType{dt.Code, dt.Bits, 1}
		if dt.Lane() != lane {
			t.Errorf("%#v.Lane() = %#v", dt, dt.Lane())
		}
		if dt.Known() {
			t.Errorf("%v.Known() = true for %d lanes", dt, dt.Lanes)
		}
		if err := dt.Check(); err != nil {
			t.Errorf("%#v.Check() = %v", dt, err)
		}
		if name, ok := dt.Name(); !ok || name != tt.name {
			t.Errorf("%#v.Name() = %q, %v; want %q", dt, name, ok, tt.name)
		}
		if s := dt.String(); s != tt.name {
			t.Errorf("%#v.String() = %q, want %q", dt, s, tt.name)
		}
		if got, err := ParseDataType(tt.name); err != nil || got != dt {
			t.Errorf("ParseDataType(%q) = %#v, %v", tt.name, got, err)
		}
		if dt.SubByte() {
			t.Errorf("%v.SubByte() = true", dt)
		}
		if n := dt.ItemSize(); n != tt.itemSize {
			t.Errorf("%v.ItemSize() = %d, want %d", dt, n, tt.itemSize)
		}
		for _, padded := range []bool{false, true} {
			if n := dt.StorageSize(padded); n != tt.itemSize {
				t.Errorf("%v.StorageSize(%v) = %d, want %d", dt, padded, n, tt.itemSize)
			}
		}
		for _, dev := range []Device{{CPU, 0}, {Trn, 0}, {MAIA, 0}} {
			if v, w := MinVersion(dt, dev), MinVersion(lane, dev); v != w {
				t.Errorf("MinVersion(%v, %v) = %v, its lane type needs %v", dt, dev, v, w)
			}
		}
	}
	// DataTypes lists the table only: one lane each.
	for _, dt := range DataTypes() {
		if dt.Lanes != 1 {
			t.Errorf("DataTypes() holds %v", dt)
		}
	}
}

func TestSubByte(t *testing.T) {
	for _, tt := range []struct {
		dt   DataType
		want bool
	}{
		{float4, true},
		{DataType{Float6E2M3FN, 6, 1}, true},
		{DataType{Float4E2M1FN, 4, 2}, false},
		{DataType{Float6E2M3FN, 6, 4}, false},
		{Uint8, false},
		{DataType{UInt, 2, 3}, true}, // 6 bits: not a type of the table, but narrower than a byte
	} {
		if got := tt.dt.SubByte(); got != tt.want {
			t.Errorf("%v.SubByte() = %v, want %v", tt.dt, got, tt.want)
		}
	}
}
