package pymodule_test

import (
	"fmt"

	"github.com/godlpack/godlpack/pymodule"
)

// A Buffer grows in C memory; a view of it, as a bound method returns one,
// keeps it from resizing until the view is let go of.
func ExampleBuffer() {
	var rows pymodule.Buffer[float32] // the zero Buffer is empty; a field of a class's value is freed with its instance
	defer rows.Free()
	if err := rows.AppendSlice([]float32{1, 2, 3, 4, 5, 6}); err != nil {
		fmt.Println(err) // a MemoryError, from a bound function
		return
	}
	view, err := rows.View(2, 3) // a 2x3 tensor over the six elements, for a method to return
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(rows.Len(), rows.Views())
	fmt.Println(rows.Append(7)) // a BufferError, from a bound function
	view.Release()              // returned, the view would be let go of by Python, on any thread
	fmt.Println(rows.Append(7), rows.Slice())
	// Output:
	// 6 1
	// Existing exports of data: the buffer cannot be resized: 1 view of it alive
	// <nil> [1 2 3 4 5 6 7]
}
