package spare_test

import (
	"fmt"

	"github.com/godlpack/godlpack/internal/spare"
)

type scratch struct{ buf [64]byte }

var scratches spare.Slots[scratch]

func ExampleSlots() {
	s := scratches.Take()
	if s == nil {
		s = new(scratch) // none spare: the first call, or every slot is out
	}
	n := copy(s.buf[:], "hello")
	fmt.Println(string(s.buf[:n]))
	scratches.Give(s)
	fmt.Println(scratches.Take() == s)
	// Output:
	// hello
	// true
}
