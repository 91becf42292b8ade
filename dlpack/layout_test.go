package dlpack

import (
	"testing"
	"unsafe"
)

// abiRow is one published fact of the 64-bit DLPack ABI together with the
// Go mirror's value and the C name cABI reports it under.
type abiRow struct {
	c         string
	published uint64
	goValue   uintptr
}

var (
	ver  Version
	dev  Device
	dt   DataType
	tens Tensor
	mt   ManagedTensor
	mtv  ManagedTensorVersioned
)

var abiRows = []abiRow{
	{"sizeof(DLPackVersion)", 8, unsafe.Sizeof(ver)},
	{"offsetof(DLPackVersion.major)", 0, unsafe.Offsetof(ver.Major)},
	{"offsetof(DLPackVersion.minor)", 4, unsafe.Offsetof(ver.Minor)},

	{"sizeof(DLDeviceType)", 4, unsafe.Sizeof(dev.Type)},
	{"sizeof(DLDevice)", 8, unsafe.Sizeof(dev)},
	{"offsetof(DLDevice.device_type)", 0, unsafe.Offsetof(dev.Type)},
	{"offsetof(DLDevice.device_id)", 4, unsafe.Offsetof(dev.ID)},

	{"sizeof(DLDataType)", 4, unsafe.Sizeof(dt)},
	{"offsetof(DLDataType.code)", 0, unsafe.Offsetof(dt.Code)},
	{"offsetof(DLDataType.bits)", 1, unsafe.Offsetof(dt.Bits)},
	{"offsetof(DLDataType.lanes)", 2, unsafe.Offsetof(dt.Lanes)},

	{"sizeof(DLTensor)", 48, unsafe.Sizeof(tens)},
	{"offsetof(DLTensor.data)", 0, unsafe.Offsetof(tens.Data)},
	{"offsetof(DLTensor.device)", 8, unsafe.Offsetof(tens.Device)},
	{"offsetof(DLTensor.ndim)", 16, unsafe.Offsetof(tens.NDim)},
	{"offsetof(DLTensor.dtype)", 20, unsafe.Offsetof(tens.DType)},
	{"offsetof(DLTensor.shape)", 24, unsafe.Offsetof(tens.Shape)},
	{"offsetof(DLTensor.strides)", 32, unsafe.Offsetof(tens.Strides)},
	{"offsetof(DLTensor.byte_offset)", 40, unsafe.Offsetof(tens.ByteOffset)},

	{"sizeof(DLManagedTensor)", 64, unsafe.Sizeof(mt)},
	{"offsetof(DLManagedTensor.dl_tensor)", 0, unsafe.Offsetof(mt.DLTensor)},
	{"offsetof(DLManagedTensor.manager_ctx)", 48, unsafe.Offsetof(mt.ManagerCtx)},
	{"offsetof(DLManagedTensor.deleter)", 56, unsafe.Offsetof(mt.Deleter)},

	{"sizeof(DLManagedTensorVersioned)", 80, unsafe.Sizeof(mtv)},
	{"offsetof(DLManagedTensorVersioned.version)", 0, unsafe.Offsetof(mtv.Version)},
	{"offsetof(DLManagedTensorVersioned.manager_ctx)", 8, unsafe.Offsetof(mtv.ManagerCtx)},
	{"offsetof(DLManagedTensorVersioned.deleter)", 16, unsafe.Offsetof(mtv.Deleter)},
	{"offsetof(DLManagedTensorVersioned.flags)", 24, unsafe.Offsetof(mtv.Flags)},
	{"offsetof(DLManagedTensorVersioned.dl_tensor)", 32, unsafe.Offsetof(mtv.DLTensor)},
}

func TestStructLayout(t *testing.T) {
	if unsafe.Sizeof(uintptr(0)) != 8 {
		t.Skip("published layout is for 64-bit platforms")
	}
	c := cABI()
	if c == nil {
		t.Log("cgo disabled: checking the Go mirrors against the published layout only")
	}
	for _, r := range abiRows {
		if uint64(r.goValue) != r.published {
			t.Errorf("Go %s = %d, published %d", r.c, r.goValue, r.published)
		}
		if c == nil {
			continue
		}
		v, ok := c[r.c]
		if !ok {
			t.Errorf("cABI has no %s", r.c)
			continue
		}
		if v != r.published {
			t.Errorf("C %s = %d, published %d", r.c, v, r.published)
		}
	}
}

// exchangeAPILayout is the published 64-bit layout of the exchange API structs.
var exchangeAPILayout = map[string]uint64{
	"sizeof(DLPackExchangeAPIHeader)":                                   16,
	"offsetof(DLPackExchangeAPIHeader.version)":                         0,
	"offsetof(DLPackExchangeAPIHeader.prev_api)":                        8,
	"sizeof(DLPackExchangeAPI)":                                         56,
	"offsetof(DLPackExchangeAPI.header)":                                0,
	"offsetof(DLPackExchangeAPI.managed_tensor_allocator)":              16,
	"offsetof(DLPackExchangeAPI.managed_tensor_from_py_object_no_sync)": 24,
	"offsetof(DLPackExchangeAPI.managed_tensor_to_py_object_no_sync)":   32,
	"offsetof(DLPackExchangeAPI.dltensor_from_py_object_no_sync)":       40,
	"offsetof(DLPackExchangeAPI.current_work_stream)":                   48,
}

// TestExchangeAPILayout checks the C exchange API structs of dlpack.h, which
// have no Go mirror, against their published 64-bit layout.
func TestExchangeAPILayout(t *testing.T) {
	c := cABI()
	if c == nil || unsafe.Sizeof(uintptr(0)) != 8 {
		t.Skip("needs cgo on a 64-bit platform")
	}
	for name, want := range exchangeAPILayout {
		if got, ok := c[name]; !ok || got != want {
			t.Errorf("C %s = %d (present: %v), published %d", name, got, ok, want)
		}
	}
}

// TestMinVersionMatchesC holds dlpack.h's gdl_min_version, which C code
// uses on the hot path, to MinVersion for every type code, the widths and
// lane counts that matter, and every device type from -1 to 40.
func TestMinVersionMatchesC(t *testing.T) {
	for code := 0; code < 256; code++ {
		for _, bits := range []uint8{0, 4, 8, 16, 32} {
			for _, lanes := range []uint16{1, 2} {
				for typ := int32(-1); typ <= 40; typ++ {
					dt, dev := DataType{Code(code), bits, lanes}, Device{DeviceType(typ), 3}
					if got, want := cMinVersion(dt, dev), MinVersion(dt, dev); got != want {
						t.Fatalf("gdl_min_version(%v, %v) = %v, MinVersion = %v", dt, dev, got, want)
					}
				}
			}
		}
	}
}

// TestKnownMatchesC holds dlpack.h's gdl_dtype_known (generated from the
// table), gdl_dtype_valid and gdl_itemsize to DataType.Known, Check and
// StorageSize for every code and width, with the lane counts that matter.
func TestKnownMatchesC(t *testing.T) {
	for code := 0; code < 256; code++ {
		for bits := 0; bits < 256; bits++ {
			for _, lanes := range []uint16{0, 1, 2, 3, 4, 16, 65535} {
				dt := DataType{Code(code), uint8(bits), lanes}
				if got, want := cKnown(dt), dt.Known(); got != want {
					t.Fatalf("gdl_dtype_known(%v) = %v, Known = %v", dt, got, want)
				}
				if got, want := cValid(dt), dt.Check() == nil; got != want {
					t.Fatalf("gdl_dtype_valid(%v) = %v, Check = %v", dt, got, dt.Check())
				}
				for _, padded := range []bool{false, true} {
					if got, want := cItemSize(dt, padded), dt.StorageSize(padded); got != want {
						t.Fatalf("gdl_itemsize(%v, %v) = %d, StorageSize = %d", dt, padded, got, want)
					}
				}
			}
		}
	}
}

func TestABIConstants(t *testing.T) {
	rows := []struct {
		c         string
		published uint64
		goValue   uint64
	}{
		{"GDL_MAJOR_VERSION", 1, MajorVersion},
		{"GDL_MINOR_VERSION", 3, MinorVersion},
		{"GDL_MAX_NDIM", 64, MaxNDim},

		{"GDL_FLAG_READ_ONLY", 1 << 0, uint64(ReadOnly)},
		{"GDL_FLAG_IS_COPIED", 1 << 1, uint64(IsCopied)},
		{"GDL_FLAG_IS_SUBBYTE_TYPE_PADDED", 1 << 2, uint64(IsSubbyteTypePadded)},
		{"GDL_KNOWN_FLAGS", 7, uint64(KnownFlags)},

		{"kDLCPU", 1, uint64(CPU)},
		{"kDLCUDA", 2, uint64(CUDA)},
		{"kDLCUDAHost", 3, uint64(CUDAHost)},
		{"kDLOpenCL", 4, uint64(OpenCL)},
		{"kDLVulkan", 7, uint64(Vulkan)},
		{"kDLMetal", 8, uint64(Metal)},
		{"kDLVPI", 9, uint64(VPI)},
		{"kDLROCM", 10, uint64(ROCM)},
		{"kDLROCMHost", 11, uint64(ROCMHost)},
		{"kDLExtDev", 12, uint64(ExtDev)},
		{"kDLCUDAManaged", 13, uint64(CUDAManaged)},
		{"kDLOneAPI", 14, uint64(OneAPI)},
		{"kDLWebGPU", 15, uint64(WebGPU)},
		{"kDLHexagon", 16, uint64(Hexagon)},
		{"kDLMAIA", 17, uint64(MAIA)},
		{"kDLTrn", 18, uint64(Trn)},
		{"kDLTPU", 19, uint64(TPU)},
		{"kDLTPUHost", 20, uint64(TPUHost)},
		{"kDLAscend", 21, uint64(Ascend)},

		{"kDLInt", 0, uint64(Int)},
		{"kDLUInt", 1, uint64(UInt)},
		{"kDLFloat", 2, uint64(Float)},
		{"kDLOpaqueHandle", 3, uint64(OpaqueHandle)},
		{"kDLBfloat", 4, uint64(Bfloat)},
		{"kDLComplex", 5, uint64(Complex)},
		{"kDLBool", 6, uint64(CodeBool)},
		{"kDLFloat8_e3m4", 7, uint64(Float8E3M4)},
		{"kDLFloat8_e4m3", 8, uint64(Float8E4M3)},
		{"kDLFloat8_e4m3b11fnuz", 9, uint64(Float8E4M3B11FNUZ)},
		{"kDLFloat8_e4m3fn", 10, uint64(Float8E4M3FN)},
		{"kDLFloat8_e4m3fnuz", 11, uint64(Float8E4M3FNUZ)},
		{"kDLFloat8_e5m2", 12, uint64(Float8E5M2)},
		{"kDLFloat8_e5m2fnuz", 13, uint64(Float8E5M2FNUZ)},
		{"kDLFloat8_e8m0fnu", 14, uint64(Float8E8M0FNU)},
		{"kDLFloat6_e2m3fn", 15, uint64(Float6E2M3FN)},
		{"kDLFloat6_e3m2fn", 16, uint64(Float6E3M2FN)},
		{"kDLFloat4_e2m1fn", 17, uint64(Float4E2M1FN)},
		{"kDLBcomplex", 18, uint64(Bcomplex)},
	}
	c := cABI()
	seen := map[string]bool{}
	for _, r := range rows {
		seen[r.c] = true
		if r.goValue != r.published {
			t.Errorf("Go constant for %s = %d, published %d", r.c, r.goValue, r.published)
		}
		if c == nil {
			continue
		}
		if v, ok := c[r.c]; !ok {
			t.Errorf("cABI has no %s", r.c)
		} else if v != r.published {
			t.Errorf("C %s = %d, published %d", r.c, v, r.published)
		}
	}
	for _, r := range abiRows {
		seen[r.c] = true
	}
	for name := range exchangeAPILayout {
		seen[name] = true
	}
	// Every fact the C side reports must be checked by one of the tables.
	for name := range c {
		if !seen[name] {
			t.Errorf("cABI reports %s, which no test row checks", name)
		}
	}
	if Current != (Version{1, 3}) {
		t.Errorf("Current = %v, want 1.3", Current)
	}
}

// TestMirrorConversion checks that a Go mirror read through the other
// struct's pointer sees the same fields, which is how the other packages
// hand these structs to C.
func TestMirrorConversion(t *testing.T) {
	shape := []int64{2, 3}
	strides := []int64{3, 1}
	var x ManagedTensorVersioned
	x.Version = Current
	x.Flags = ReadOnly | IsCopied
	x.DLTensor = Tensor{
		Device: Device{CUDA, 3},
		NDim:   2,
		DType:  Float32,
		Shape:  &shape[0], Strides: &strides[0],
		ByteOffset: 16,
	}
	if one := uint16(1); *(*byte)(unsafe.Pointer(&one)) != 1 || unsafe.Sizeof(uintptr(0)) != 8 {
		t.Skip("word checks assume a 64-bit little-endian platform")
	}
	words := (*[10]uint64)(unsafe.Pointer(&x))
	if words[0] != 1|3<<32 {
		t.Errorf("version word = %#x", words[0])
	}
	if words[3] != 3 {
		t.Errorf("flags word = %#x", words[3])
	}
	if words[5] != 2|3<<32 {
		t.Errorf("device word = %#x", words[5])
	}
	if words[6] != 2|2<<32|32<<40|1<<48 {
		t.Errorf("ndim/dtype word = %#x", words[6])
	}
	if words[9] != 16 {
		t.Errorf("byte_offset word = %d", words[9])
	}
	if got := x.DLTensor.ShapeSlice(); len(got) != 2 || got[1] != 3 {
		t.Errorf("ShapeSlice = %v", got)
	}
	if got := x.DLTensor.StridesSlice(); len(got) != 2 || got[0] != 3 {
		t.Errorf("StridesSlice = %v", got)
	}
	var empty Tensor
	if empty.ShapeSlice() != nil || empty.StridesSlice() != nil {
		t.Error("slices of a 0-d tensor are not nil")
	}
}
