//go:build linux

package consumer_test

import (
	"encoding/binary"
	"errors"
	"github.com/godlpack/godlpack/consumer"
	"github.com/godlpack/godlpack/internal/inspecttest"
	"math"
	"math/big"
	"math/bits"
	"slices"
	"sync"
	"syscall"
	"testing"
	"unsafe"

	"github.com/godlpack/godlpack/dlpack"
)

// guarded is a page of memory followed by a page that may not be touched.
// Whatever the fuzzer builds is placed so that it ends exactly at the guard
// page: a read one byte past it crashes the test instead of going unseen.
type guarded struct {
	page  []byte // the usable page
	guard unsafe.Pointer
}

var (
	guardOnce sync.Once
	guardMu   sync.Mutex // the fuzz function reuses the pages
	// managedPage holds the managed struct; shapePage and stridesPage hold
	// the arrays; arena stands in for the data, which Inspect never reads.
	managedPage, shapePage, stridesPage, arena guarded
)

func newGuarded(t testing.TB) guarded {
	size := syscall.Getpagesize()
	mem, err := syscall.Mmap(-1, 0, 2*size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Fatalf("mmap: %v", err)
	}
	if err := syscall.Mprotect(mem[size:], syscall.PROT_NONE); err != nil {
		t.Fatalf("mprotect: %v", err)
	}
	return guarded{page: mem[:size:size], guard: unsafe.Pointer(&mem[size])}
}

// tail returns the address n bytes before the guard page.
func (g guarded) tail(n int) unsafe.Pointer { return unsafe.Add(g.guard, -n) }

// Data addresses the fuzzer chooses from. None is on the Go heap, and none
// is below the lowest legal pointer, so that the garbage collector never
// sees a View.Data it would call invalid.
const (
	farAddress = uintptr(1) << 56 // never mapped, outside any heap arena
	topGap     = 1 << 20          // data this far below the top of the address space overflows with large offsets
)

// fuzzDims decodes n int64 values from data: a byte with the high bit set
// takes the next eight bytes as a raw value, any other byte is small (shape
// 0..7, strides -64..63), so that the fuzzer reaches both walkable layouts
// and overflowing ones.
func fuzzDims(n int, data []byte, stride bool) ([]int64, []byte) {
	out := make([]int64, n)
	for i := range out {
		if len(data) == 0 {
			out[i] = 1
			continue
		}
		b := data[0]
		data = data[1:]
		switch {
		case b&0x80 != 0 && len(data) >= 8:
			out[i] = int64(binary.LittleEndian.Uint64(data))
			data = data[8:]
		case stride:
			out[i] = int64(int8(b<<1)) >> 1
		default:
			out[i] = int64(b & 7)
		}
	}
	return out, data
}

// FuzzInspect hands Inspect managed tensors with arbitrary contents: any
// version, flags, ndim, shape, strides, dtype, device, byte_offset and NULL
// pointers. Every input must end in an error or in a view whose fields match
// the struct and whose extent holds every element; none may panic or read
// outside the struct, the shape or the strides.
func FuzzInspect(f *testing.F) {
	// versioned, major, minor, flags, ndim, code, bits, lanes, device type, ptrs, byte_offset, dims
	f.Add(true, uint32(1), uint32(3), uint64(0), int32(2), uint8(2), uint8(32), uint16(1), int32(1), uint8(1<<2), uint64(0), []byte{2, 3, 3, 1})
	f.Add(false, uint32(0), uint32(0), uint64(0), int32(1), uint8(0), uint8(8), uint16(1), int32(1), uint8(1<<1|1<<2), uint64(3), []byte{5, 0})
	f.Add(true, uint32(2), uint32(0), uint64(0), int32(1), uint8(2), uint8(32), uint16(1), int32(1), uint8(1<<2), uint64(0), []byte{4, 1})
	f.Add(true, uint32(1), uint32(1), uint64(0), int32(3), uint8(2), uint8(64), uint16(1), int32(1), uint8(1<<1|1<<2), uint64(0), []byte{2, 0, 2, 0, 2, 0})
	f.Add(true, uint32(1), uint32(3), uint64(1<<3), int32(1), uint8(2), uint8(32), uint16(1), int32(1), uint8(1<<2), uint64(0), []byte{4, 1})
	f.Add(true, uint32(1), uint32(3), uint64(0), int32(65), uint8(2), uint8(32), uint16(1), int32(1), uint8(1<<2), uint64(0), []byte{})
	f.Add(true, uint32(1), uint32(3), uint64(0), int32(-1), uint8(2), uint8(32), uint16(1), int32(1), uint8(1<<2), uint64(0), []byte{})
	f.Add(true, uint32(1), uint32(3), uint64(0), int32(64), uint8(1), uint8(8), uint16(1), int32(1), uint8(1<<2), uint64(0), []byte{})
	f.Add(true, uint32(1), uint32(3), uint64(0), int32(2), uint8(2), uint8(32), uint16(1), int32(1), uint8(1), uint64(0), []byte{2, 1, 2, 1})
	f.Add(true, uint32(1), uint32(3), uint64(0), int32(1), uint8(2), uint8(32), uint16(1), int32(1), uint8(0), uint64(0), []byte{3, 1})
	f.Add(true, uint32(1), uint32(3), uint64(0), int32(1), uint8(2), uint8(32), uint16(1), int32(1), uint8(0), uint64(0), []byte{0, 1})
	f.Add(true, uint32(1), uint32(3), uint64(0), int32(2), uint8(2), uint8(32), uint16(1), int32(1), uint8(1<<2), uint64(0),
		[]byte{0x80, 0, 0, 0, 0, 0, 0, 0, 0x40, 1, 0x80, 0, 0, 0, 0, 0, 0, 0, 0x40, 1})
	f.Add(true, uint32(1), uint32(3), uint64(0), int32(1), uint8(2), uint8(32), uint16(1), int32(1), uint8(3<<2), uint64(1<<19), []byte{0x80, 0, 0, 1, 0, 0, 0, 0, 0, 1})
	f.Add(true, uint32(1), uint32(3), uint64(0), int32(1), uint8(17), uint8(4), uint16(1), int32(1), uint8(1<<2), uint64(0), []byte{5, 1})
	f.Add(true, uint32(1), uint32(3), uint64(0), int32(1), uint8(17), uint8(4), uint16(1), int32(1), uint8(1<<2), uint64(0), []byte{5, 2})
	f.Add(true, uint32(1), uint32(3), uint64(4), int32(1), uint8(17), uint8(4), uint16(1), int32(1), uint8(1<<2), uint64(0), []byte{5, 2})
	f.Add(true, uint32(1), uint32(3), uint64(0), int32(2), uint8(99), uint8(7), uint16(3), int32(2), uint8(2<<2), uint64(0), []byte{3, 1, 3, 1})
	f.Add(true, uint32(1), uint32(3), uint64(0), int32(1), uint8(2), uint8(32), uint16(2), int32(1), uint8(1<<2), uint64(0), []byte{3, 1})
	f.Add(false, uint32(0), uint32(0), uint64(0), int32(2), uint8(5), uint8(128), uint16(1), int32(13), uint8(1<<2), uint64(0), []byte{2, 0x7f, 3, 0x7e})
	f.Add(true, uint32(1), uint32(3), uint64(3), int32(0), uint8(6), uint8(8), uint16(1), int32(3), uint8(0), uint64(0), []byte{})
	f.Fuzz(func(t *testing.T, versioned bool, major, minor uint32, flags uint64, ndim int32,
		code, nbits uint8, lanes uint16, devType int32, ptrs uint8, byteOffset uint64, dims []byte) {
		guardMu.Lock()
		defer guardMu.Unlock()
		guardOnce.Do(func() {
			managedPage, shapePage, stridesPage, arena = newGuarded(t), newGuarded(t), newGuarded(t), newGuarded(t)
		})
		for _, g := range []guarded{managedPage, shapePage, stridesPage} {
			clear(g.page)
		}

		nullShape, nullStrides := ptrs&1 != 0, ptrs&2 != 0
		var data unsafe.Pointer
		switch ptrs >> 2 & 3 {
		case 1:
			data = unsafe.Pointer(&arena.page[0])
		case 2:
			data = unsafe.Add(nil, farAddress) // an address, never dereferenced
		case 3:
			data = unsafe.Add(nil, -topGap)
		}

		// Arrays exactly as long as ndim claims, ending at a guard page.
		// For an ndim Inspect must refuse, they are the guard page itself.
		var shape, strides []int64
		shapePtr, stridesPtr := (*int64)(shapePage.guard), (*int64)(stridesPage.guard)
		if ndim >= 1 && ndim <= dlpack.MaxNDim {
			n := int(ndim)
			var rest []byte
			shape, rest = fuzzDims(n, dims, false)
			strides, _ = fuzzDims(n, rest, true)
			shapePtr = (*int64)(shapePage.tail(8 * n))
			stridesPtr = (*int64)(stridesPage.tail(8 * n))
			copy(unsafe.Slice(shapePtr, n), shape)
			copy(unsafe.Slice(stridesPtr, n), strides)
		}
		if nullShape {
			shapePtr = nil
		}
		if nullStrides {
			stridesPtr = nil
		}

		dt := dlpack.DataType{Code: dlpack.Code(code), Bits: nbits, Lanes: lanes}
		dev := dlpack.Device{Type: dlpack.DeviceType(devType), ID: int32(ptrs)}
		tensor := dlpack.Tensor{Data: data, Device: dev, NDim: ndim, DType: dt, Shape: shapePtr,
			Strides: stridesPtr, ByteOffset: byteOffset}
		var managed unsafe.Pointer
		if versioned {
			managed = managedPage.tail(int(unsafe.Sizeof(dlpack.ManagedTensorVersioned{})))
			*(*dlpack.ManagedTensorVersioned)(managed) = dlpack.ManagedTensorVersioned{
				Version: dlpack.Version{Major: major, Minor: minor}, Flags: dlpack.Flags(flags), DLTensor: tensor}
		} else {
			managed = managedPage.tail(int(unsafe.Sizeof(dlpack.ManagedTensor{})))
			*(*dlpack.ManagedTensor)(managed) = dlpack.ManagedTensor{DLTensor: tensor}
		}

		var buf [dlpack.MaxNDim]int64
		m := dlpack.Managed{Pointer: managed, Versioned: versioned}
		v, err := consumer.Inspect(m, buf[:])
		checkFastPath(t, m, v, err)
		if err != nil {
			checkRefusal(t, err, versioned, major)
			return
		}
		checkView(t, &v, &tensor, versioned, major, minor, dlpack.Flags(flags), shape)
	})
}

// checkFastPath holds gdl_inspect, the C hot path of Inspect, to Inspect:
// whatever it accepts, Inspect must accept with the same view (the
// F-contiguity, which C callers never ask, aside).
func checkFastPath(t *testing.T, m dlpack.Managed, want consumer.View, err error) {
	t.Helper()
	var buf [dlpack.MaxNDim]int64
	got, ok := inspecttest.Inspect(m, &buf)
	if !ok {
		return
	}
	if err != nil {
		t.Fatalf("gdl_inspect accepted a tensor consumer.Inspect refuses: %v", err)
	}
	want.Extent.FContiguous = false
	if got.Data != want.Data || got.DType != want.DType || got.Device != want.Device || got.Flags != want.Flags ||
		got.Version != want.Version || got.Versioned != want.Versioned || got.Extent != want.Extent ||
		!slices.Equal(got.Shape, want.Shape) || !slices.Equal(got.Strides, want.Strides) {
		t.Fatalf("gdl_inspect gives %+v, consumer.Inspect %+v", got, want)
	}
}

// checkRefusal checks that an error says which kind of refusal it is.
func checkRefusal(t *testing.T, err error, versioned bool, major uint32) {
	t.Helper()
	msg := err.Error()
	if !hasPackagePrefix(err) {
		t.Fatalf("error %q starts with neither \"consumer: \" nor \"dlpack: \"", msg)
	}
	var ce *consumer.Error
	isVersion := errors.As(err, &ce) && ce.Version
	if wantVersion := versioned && major != dlpack.MajorVersion; isVersion != wantVersion {
		t.Fatalf("major %d (versioned %v): error %v has Version = %v", major, versioned, err, isVersion)
	}
}

// checkView checks an accepted view against the struct it came from.
func checkView(t *testing.T, v *consumer.View, tensor *dlpack.Tensor, versioned bool, major, minor uint32,
	flags dlpack.Flags, shape []int64) {
	t.Helper()
	n := int(tensor.NDim)
	if n < 0 || n > dlpack.MaxNDim {
		t.Fatalf("ndim %d accepted", n)
	}
	if versioned {
		if major != dlpack.MajorVersion || v.Version != (dlpack.Version{Major: major, Minor: minor}) {
			t.Fatalf("version %d.%d accepted as %v", major, minor, v.Version)
		}
		if flags&^(dlpack.ReadOnly|dlpack.IsCopied|dlpack.IsSubbyteTypePadded) != 0 || v.Flags != flags {
			t.Fatalf("flags %#x accepted as %v", uint64(flags), v.Flags)
		}
	} else if v.Flags != 0 || v.Version != (dlpack.Version{}) || !v.ReadOnly() {
		t.Fatalf("legacy tensor: flags %v, version %v, read-only %v", v.Flags, v.Version, v.ReadOnly())
	}
	if v.Versioned != versioned || v.DType != tensor.DType || v.Device != tensor.Device {
		t.Fatalf("view %+v does not match the struct %+v", v, tensor)
	}
	if len(v.Shape) != n || len(v.Strides) != n {
		t.Fatalf("ndim %d: view has %d dims and %d strides", n, len(v.Shape), len(v.Strides))
	}
	for i := range n {
		if v.Shape[i] != shape[i] {
			t.Fatalf("shape %v read as %v", shape, v.Shape)
		}
	}
	if n > 0 && tensor.Strides == nil {
		if versioned && !v.Version.Less(dlpack.Version{Major: 1, Minor: 2}) {
			t.Fatalf("NULL strides accepted from version %v", v.Version)
		}
		want := dlpack.ContiguousStrides(shape, nil)
		for i := range n {
			if v.Strides[i] != want[i] {
				t.Fatalf("NULL strides for shape %v read as %v, want %v", shape, v.Strides, want)
			}
		}
	}

	// The element count is the product of the shape, computed apart.
	prod := big.NewInt(1)
	for _, d := range v.Shape {
		if d < 0 {
			t.Fatalf("negative dimension accepted: %v", v.Shape)
		}
		prod.Mul(prod, big.NewInt(d))
	}
	if !prod.IsInt64() || prod.Int64() != v.Extent.Elements {
		t.Fatalf("shape %v: consumer.Elements = %d, product %v", v.Shape, v.Extent.Elements, prod)
	}
	if v.Extent.Elements > 0 && tensor.Data == nil {
		t.Fatalf("NULL data accepted for %d elements", v.Extent.Elements)
	}

	// Data is data + byte_offset, and did not wrap around; NULL stays nil.
	sum, carry := bits.Add64(uint64(uintptr(tensor.Data)), tensor.ByteOffset, 0)
	if tensor.Data == nil {
		sum = 0
	}
	if carry != 0 || uintptr(sum) != uintptr(v.Data) {
		t.Fatalf("data %p + byte_offset %d gave Data %p", tensor.Data, tensor.ByteOffset, v.Data)
	}

	valid := v.DType.Check() == nil
	if !v.CPUAccessible() && !valid {
		return // passed through, never read: only its sizes are checked
	}
	if !valid {
		t.Fatalf("unknown dtype %v accepted on %v", v.DType, v.Device)
	}
	checkExtent(t, v, uint64(uintptr(v.Data)))
}

// checkExtent walks every element of a small view and checks that each of
// its bytes lies in [Low, High) around Data, that the extent is the hull of
// the elements, and that the whole extent fits in the address space.
func checkExtent(t *testing.T, v *consumer.View, first uint64) {
	t.Helper()
	e := v.Extent
	if e.Elements == 0 {
		if e.Low != 0 || e.High != 0 {
			t.Fatalf("empty view has extent %+v", e)
		}
		return
	}
	if e.Low > 0 || e.High <= 0 || e.Low == math.MinInt64 {
		t.Fatalf("extent %+v does not hold element 0", e)
	}
	if uint64(-e.Low) > first || uint64(e.High) > math.MaxUint64-first {
		t.Fatalf("extent %+v around %#x leaves the address space", e, first)
	}
	padded := v.Flags&dlpack.IsSubbyteTypePadded != 0
	if v.DType.SubByte() && !padded {
		q, r := e.Elements/8, e.Elements%8
		want := q*int64(v.DType.Bits) + (r*int64(v.DType.Bits)+7)/8
		if !e.CContiguous || e.Low != 0 || e.High != want {
			t.Fatalf("packed %v of %d elements: extent %+v, want [0, %d)", v.DType, e.Elements, e, want)
		}
		return
	}
	size := int64(v.DType.StorageSize(true))
	if e.Elements > math.MaxInt64/size {
		t.Fatalf("%d elements of %d bytes accepted: a copy's size overflows int64", e.Elements, size)
	}
	if e.Elements > 4096 {
		return
	}
	lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
	idx := make([]int64, len(v.Shape))
	for range e.Elements {
		var off int64
		for i, x := range idx {
			off += x * v.Strides[i]
		}
		b := off * size
		if b < e.Low || b+size > e.High {
			t.Fatalf("element %v at bytes [%d, %d) lies outside the extent %+v", idx, b, b+size, e)
		}
		lo, hi = min(lo, b), max(hi, b+size)
		for i := len(idx) - 1; i >= 0; i-- {
			if idx[i]++; idx[i] < v.Shape[i] {
				break
			}
			idx[i] = 0
		}
	}
	if lo != e.Low || hi != e.High {
		t.Fatalf("shape %v strides %v: elements span [%d, %d), extent %+v", v.Shape, v.Strides, lo, hi, e)
	}
}
