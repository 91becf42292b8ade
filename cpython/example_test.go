package cpython_test

import (
	"errors"
	"fmt"

	"github.com/godlpack/godlpack/consumer"
	"github.com/godlpack/godlpack/cpython"
)

// Go errors name the Python exception they raise: an *Error its own, the
// consumer's errors the ones the DLPack protocol names.
func ExampleExceptionOf() {
	for _, err := range []error{
		cpython.Errorf(cpython.ValueError, "shapes differ: %v and %v", []int{2, 3}, []int{3, 2}),
		fmt.Errorf("reading x: %w", consumer.ErrDType),
		errors.New("anything else"),
	} {
		fmt.Println(cpython.ExceptionOf(err) == cpython.ValueError, cpython.ExceptionOf(err) == cpython.TypeError)
	}
	// Output:
	// true false
	// false true
	// false false
}
