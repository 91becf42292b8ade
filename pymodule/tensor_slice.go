package pymodule

import (
	"reflect"
	"unsafe"

	"github.com/godlpack/godlpack/dlpack"
	"github.com/godlpack/godlpack/internal/fmt"
	"github.com/godlpack/godlpack/internal/pysig"
	"github.com/godlpack/godlpack/producer"
)

// An element is what a Go slice of one element kind is as a tensor: its
// dtype, and how a result of that slice is pinned into an Array.
type element struct {
	dtype dlpack.DataType
	pin   func(data unsafe.Pointer, n int) (Array, error)
}

// elements are the Go slices a function may take and return as tensors, by element kind.
var elements = map[reflect.Kind]element{
	reflect.Bool:       elementOf(dlpack.Bool),
	reflect.Int8:       elementOf(dlpack.Int8),
	reflect.Int16:      elementOf(dlpack.Int16),
	reflect.Int32:      elementOf(dlpack.Int32),
	reflect.Int64:      elementOf(dlpack.Int64),
	reflect.Uint16:     elementOf(dlpack.Uint16),
	reflect.Uint32:     elementOf(dlpack.Uint32),
	reflect.Uint64:     elementOf(dlpack.Uint64),
	reflect.Float32:    elementOf(dlpack.Float32),
	reflect.Float64:    elementOf(dlpack.Float64),
	reflect.Complex64:  elementOf(dlpack.Complex64),
	reflect.Complex128: elementOf(dlpack.Complex128),
}

// elementOf is the element of dtype dt: one function pins a slice of any,
// where a generic one would be compiled for each.
func elementOf(dt dlpack.DataType) element {
	return element{dt, func(p unsafe.Pointer, n int) (Array, error) { return pinElements(p, n, dt) }}
}

// sliceSpec is what a []T parameter of Go type t asks: a 1-D C-contiguous
// tensor of T's dtype, converted (copied) from another dtype or layout. An
// annotation may only add "writable", which refuses what would need a copy.
func sliceSpec(t reflect.Type, annotation pysig.Tensor, annotated bool) (pysig.Tensor, error) {
	spec := pysig.Tensor{DTypes: []string{elements[t.Elem().Kind()].dtype.String()}, Shape: []int64{-1}, Order: 'C',
		Device: "cpu", Convert: true}
	if annotated {
		a := annotation // tensor[writable], field by field: reflect.DeepEqual would link all its reflection
		if a.DTypes != nil || a.Shape != nil || a.Order != 0 || a.Device != "cpu" || !a.Writable || a.Convert {
			return spec, fmt.Errorf("a Go %v takes a 1-D C-contiguous %v tensor: its annotation may only be tensor[writable]",
				t, spec.DTypes[0])
		}
		spec.Writable, spec.Convert = true, false
	}
	return spec, nil
}

// pinElements is FromSlice of the n elements of dt at p, pinned as bytes:
// one function for every element type, where FromSlice's code is compiled
// for each (the Go memory is one object, which pinning a byte of pins).
func pinElements(p unsafe.Pointer, n int, dt dlpack.DataType) (Array, error) {
	b, err := producer.Pin(unsafe.Slice((*byte)(p), n*dt.ItemSize()))
	return pinnedArray(b, err, n, dt, nil)
}
