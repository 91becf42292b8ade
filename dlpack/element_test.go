package dlpack_test

import (
	"testing"
	"unsafe"

	"github.com/godlpack/godlpack/dlpack"
)

// sizeAndType is the data type DataTypeOf gives for T, with T's size.
func sizeAndType[T dlpack.Element]() (int, dlpack.DataType) {
	var z T
	return int(unsafe.Sizeof(z)), dlpack.DataTypeOf[T]()
}

func TestDataTypeOf(t *testing.T) {
	type row struct {
		name string
		size int
		dt   dlpack.DataType
	}
	rows := []row{{name: "bool"}, {name: "int8"}, {name: "int16"}, {name: "int32"}, {name: "int64"},
		{name: "uint8"}, {name: "uint16"}, {name: "uint32"}, {name: "uint64"}, {name: "float32"},
		{name: "float64"}, {name: "complex64"}, {name: "complex128"}}
	rows[0].size, rows[0].dt = sizeAndType[bool]()
	rows[1].size, rows[1].dt = sizeAndType[int8]()
	rows[2].size, rows[2].dt = sizeAndType[int16]()
	rows[3].size, rows[3].dt = sizeAndType[int32]()
	rows[4].size, rows[4].dt = sizeAndType[int64]()
	rows[5].size, rows[5].dt = sizeAndType[uint8]()
	rows[6].size, rows[6].dt = sizeAndType[uint16]()
	rows[7].size, rows[7].dt = sizeAndType[uint32]()
	rows[8].size, rows[8].dt = sizeAndType[uint64]()
	rows[9].size, rows[9].dt = sizeAndType[float32]()
	rows[10].size, rows[10].dt = sizeAndType[float64]()
	rows[11].size, rows[11].dt = sizeAndType[complex64]()
	rows[12].size, rows[12].dt = sizeAndType[complex128]()
	for _, r := range rows {
		want, err := dlpack.ParseDataType(r.name)
		if err != nil {
			t.Fatal(err)
		}
		if r.dt != want {
			t.Errorf("DataTypeOf[%s] = %v, want %v", r.name, r.dt, want)
		}
		if r.dt.ItemSize() != r.size {
			t.Errorf("DataTypeOf[%s] = %v of %d bytes, but the Go type has %d", r.name, r.dt, r.dt.ItemSize(), r.size)
		}
	}
}
