package capsule_test

import (
	"errors"
	"fmt"

	"github.com/godlpack/godlpack/capsule"
	"github.com/godlpack/godlpack/consumer"
)

// Go errors name the Python exception they raise: an *Error its own, the
// consumer's errors the ones the DLPack protocol names.
func ExampleExceptionOf() {
	for _, err := range []error{
		capsule.Errorf(capsule.ValueError, "shapes differ: %v and %v", []int{2, 3}, []int{3, 2}),
		fmt.Errorf("reading x: %w", consumer.ErrDType),
		errors.New("anything else"),
	} {
		fmt.Println(capsule.ExceptionOf(err) == capsule.ValueError, capsule.ExceptionOf(err) == capsule.TypeError)
	}
	// Output:
	// true false
	// false true
	// false false
}
