package pysig

import (
	"errors"
	"strconv"
	"strings"
)

// Split cuts a signature at its arrow, outside brackets and quotes, as in a
// def statement: "x, /, n=2 -> tensor[float32, (*)]" is the parameter list
// "x, /, n=2" and the result annotation "tensor[float32, (*)]", each
// trimmed. arrow is false, and results "", when s has no arrow.
func Split(s string) (params, results string, arrow bool) {
	i := topLevel(s, "->")
	if i < 0 {
		return s, "", false
	}
	return strings.TrimSpace(s[:i]), strings.TrimSpace(s[i+len("->"):]), true
}

// Results reads a result annotation as the annotations of a function's n
// results, as Python writes them: "None" for no result, the annotation
// itself for one, and "tuple[a, b]" for several, one entry each.
func Results(a string, n int) ([]string, error) {
	if a == "" {
		return nil, errors.New("-> with no annotation")
	}
	switch n {
	case 0:
		if a != "None" {
			return nil, errors.New("-> " + a + ": the Go function has no result, so -> None")
		}
		return []string{}, nil
	case 1:
		return []string{a}, nil
	}
	if !strings.HasPrefix(a, "tuple[") || !strings.HasSuffix(a, "]") {
		return nil, errors.New("-> " + a + ": the Go function has " + strconv.Itoa(n) +
			" results, which Python gets as a tuple: -> tuple[…] with one annotation each")
	}
	entries, err := split(a[len("tuple[") : len(a)-1])
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if e == "" {
			return nil, errors.New("-> " + a + ": an empty annotation")
		}
	}
	if len(entries) != n {
		return nil, errors.New("-> " + a + " names " + strconv.Itoa(len(entries)) + " results, and the Go function has " +
			strconv.Itoa(n))
	}
	return entries, nil
}

// String writes t as an annotation that [ParseTensor] reads back: "tensor",
// or "tensor[…]" with [Tensor.Items].
func (t Tensor) String() string {
	if items := t.Items(); items != "" {
		return "tensor[" + items + "]"
	}
	return "tensor"
}

// Items is t's items as an annotation writes them, in a fixed order:
// dtypes, shape, order, writable, convert and a device other than "cpu"
// ("float32|float64, (*, *), C"); "" for a tensor of any kind.
func (t Tensor) Items() string {
	var items []string
	if len(t.DTypes) > 0 {
		items = append(items, strings.Join(t.DTypes, "|"))
	}
	if t.Shape != nil {
		dims := make([]string, len(t.Shape))
		for i, n := range t.Shape {
			dims[i] = "*"
			if n >= 0 {
				dims[i] = strconv.FormatInt(n, 10)
			}
		}
		items = append(items, "("+strings.Join(dims, ", ")+")")
	}
	if t.Order != 0 {
		items = append(items, string(t.Order))
	}
	if t.Writable {
		items = append(items, "writable")
	}
	if t.Convert {
		items = append(items, "convert")
	}
	if t.Device != "cpu" && t.Device != "" {
		items = append(items, "device="+t.Device)
	}
	return strings.Join(items, ", ")
}
