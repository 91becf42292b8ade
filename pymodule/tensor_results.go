package pymodule

import (
	"slices"

	"github.com/godlpack/godlpack/cpython"
	"github.com/godlpack/godlpack/dlpack"
	"github.com/godlpack/godlpack/internal/fmt"
	"github.com/godlpack/godlpack/internal/pysig"
)

// declareResults holds the result annotation a, what follows the arrow of
// b's signature ("-> tensor[float32, (*)]"), to what the Go function
// returns: one annotation a result (a tuple[…] of them for several), a
// tensor annotation on a tensor result only, with dtypes and a shape and
// nothing else (an Array is C-contiguous memory on the CPU), and for a
// slice its element's dtype and one dimension. A result whose Go type does
// not guarantee its annotation is checked at each call ([tensorSpec.holds]).
// Any other annotation is for the reader, as a parameter's is.
func (b *binding) declareResults(a string) error {
	annotations, err := pysig.Results(a, len(b.outs))
	if err != nil {
		return err
	}
	for j, text := range annotations {
		t, isTensor, err := pysig.ParseTensor(text)
		o := &b.outs[j]
		switch {
		case err != nil:
			return fmt.Errorf("result %d: %v", j, err)
		case !isTensor:
			continue
		case o.kind != kindTensor:
			return fmt.Errorf("result %d: a tensor annotation on a Go %v", j, b.fn.out[j])
		case t.Order != 0 || t.Writable || t.Convert || t.Device != "cpu":
			return fmt.Errorf("result %d: %s: a result's annotation names dtypes and a shape only (an Array is "+
				"C-contiguous memory the CPU reads)", j, text)
		}
		if o.pin != nil { // a slice: T's dtype, one dimension
			elem := o.tensor.dtypes[0].String()
			if len(t.DTypes) > 0 && !slices.Equal(t.DTypes, []string{elem}) || t.Shape != nil && len(t.Shape) != 1 {
				return fmt.Errorf("result %d: a Go %v is a 1-D %s tensor, not %s", j, b.fn.out[j], elem, text)
			}
			t.DTypes = []string{elem}
			if t.Shape == nil {
				t.Shape = []int64{-1}
			}
		}
		spec, err := resolveTensor(t)
		if err != nil {
			return fmt.Errorf("result %d: %v", j, err)
		}
		o.tensor = spec
		if o.pin == nil { // an Array: its dtype and shape are known when it is returned
			o.checked = len(spec.dtypes) > 0 || spec.shape != nil
		} else {
			o.checked = hasFixedSize(spec.shape)
		}
	}
	return nil
}

// holds says what is wrong with a result tensor of dtype dt and shape
// against the annotation s declares: a TypeError for another dtype or
// number of dimensions, a ValueError for another size; nil when it holds.
func (s *tensorSpec) holds(dt dlpack.DataType, shape []int64) error {
	if len(s.dtypes) > 0 && !slices.Contains(s.dtypes, dt) || s.shape != nil && len(shape) != len(s.shape) {
		return cpython.Errorf(cpython.TypeError, "returned a %d-D %v tensor, where its annotation says %s",
			len(shape), dt, s.want)
	}
	for i, n := range s.shape {
		if n >= 0 && shape[i] != n {
			return cpython.Errorf(cpython.ValueError, "returned a tensor of shape %s, where its annotation says %s",
				shapeString(shape), s.want)
		}
	}
	return nil
}
