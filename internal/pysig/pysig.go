// Package pysig reads the parameter list of a Python function as Python
// writes it ("x, /, lo=-inf, hi=inf, *, out=None"), with the tensor
// annotations package pymodule understands ("x: tensor[float32|float64,
// (*, *), writable]") and what the function returns ("-> tensor[float32,
// (*)]"). It knows nothing of CPython, so that its rules are tested on
// their own.
package pysig

import (
	"strconv"
	"strings"

	"github.com/godlpack/godlpack/internal/fmt"
)

// A Kind says how a parameter may be passed, as inspect.Parameter.kind.
type Kind int

// The kinds of parameters a bound function has (no *args or **kwargs).
const (
	PositionalOnly Kind = iota
	PositionalOrKeyword
	KeywordOnly
)

// A Param is one parameter of a signature.
type Param struct {
	Name       string // the parameter's name, an identifier
	Kind       Kind   // how the parameter may be passed
	Annotation string // the text after ':', trimmed; "" when none
	Default    string // the text after '=', trimmed
	HasDefault bool   // the parameter has a default: [Param.Default] holds it
}

// Parse reads a parameter list: names separated by commas, each with an
// optional annotation (": text") and default ("= text"), a "/" after the
// positional-only ones and a "*" before the keyword-only ones, as in a def
// statement. A parameter without a default may not follow one with a default
// unless it is keyword-only; names must be identifiers and unique.
func Parse(s string) ([]Param, error) {
	parts, err := split(s)
	if err != nil {
		return nil, err
	}
	var ps []Param
	slash, star, defaulted := false, false, false
	seen := map[string]bool{}
	for _, part := range parts {
		switch part {
		case "":
			if len(parts) == 1 {
				return nil, nil
			}
			return nil, fmt.Errorf("parameters %q: empty parameter", s)
		case "/":
			if slash || star || len(ps) == 0 {
				return nil, fmt.Errorf("parameters %q: misplaced /", s)
			}
			slash = true
			for i := range ps {
				ps[i].Kind = PositionalOnly
			}
			continue
		case "*":
			if star {
				return nil, fmt.Errorf("parameters %q: more than one *", s)
			}
			star = true
			continue
		}
		p := Param{Kind: PositionalOrKeyword}
		if star {
			p.Kind = KeywordOnly
		}
		head := part
		if i := topLevel(part, "="); i >= 0 {
			head, p.Default, p.HasDefault = part[:i], strings.TrimSpace(part[i+1:]), true
			if p.Default == "" {
				return nil, fmt.Errorf("parameters %q: %q has an empty default", s, strings.TrimSpace(head))
			}
		}
		if i := strings.IndexByte(head, ':'); i >= 0 {
			head, p.Annotation = head[:i], strings.TrimSpace(head[i+1:])
		}
		p.Name = strings.TrimSpace(head)
		if !identifier(p.Name) {
			return nil, fmt.Errorf("parameters %q: %q is not a parameter name", s, p.Name)
		}
		if seen[p.Name] {
			return nil, fmt.Errorf("parameters %q: duplicate parameter %q", s, p.Name)
		}
		seen[p.Name] = true
		if p.HasDefault {
			defaulted = true
		} else if defaulted && p.Kind != KeywordOnly {
			return nil, fmt.Errorf("parameters %q: %q without a default follows a parameter with one", s, p.Name)
		}
		ps = append(ps, p)
	}
	if star && (len(ps) == 0 || ps[len(ps)-1].Kind != KeywordOnly) {
		return nil, fmt.Errorf("parameters %q: * must be followed by a keyword-only parameter", s)
	}
	return ps, nil
}

// split cuts s at the commas outside brackets and quotes, trimming each part.
func split(s string) ([]string, error) {
	var parts []string
	depth, start := 0, 0
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			if depth--; depth < 0 {
				return nil, fmt.Errorf("parameters %q: unbalanced %q", s, c)
			}
		case c == ',' && depth == 0:
			parts = append(parts, strings.TrimSpace(s[start:i]))
			start = i + 1
		}
	}
	if depth != 0 || quote != 0 {
		return nil, fmt.Errorf("parameters %q: unbalanced brackets or quotes", s)
	}
	return append(parts, strings.TrimSpace(s[start:])), nil
}

// topLevel returns the index of the first tok outside brackets and quotes, or -1.
func topLevel(s, tok string) int {
	depth := 0
	var quote byte
	for i := 0; i < len(s); i++ {
		switch b := s[i]; {
		case quote != 0:
			if b == '\\' {
				i++
			} else if b == quote {
				quote = 0
			}
		case b == '\'' || b == '"':
			quote = b
		case b == '(' || b == '[' || b == '{':
			depth++
		case b == ')' || b == ']' || b == '}':
			depth--
		case depth == 0 && strings.HasPrefix(s[i:], tok):
			return i
		}
	}
	return -1
}

func identifier(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for _, r := range s {
		if r != '_' && !(r >= 'a' && r <= 'z') && !(r >= 'A' && r <= 'Z') && !(r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// A Tensor is what an annotation "tensor[…]" asks of a tensor argument.
type Tensor struct {
	DTypes   []string // dtype names; empty for any dtype
	Shape    []int64  // one entry per dimension, -1 for any size; nil for any number of dimensions
	Order    byte     // 'C' or 'F' for a contiguous layout; 0 for any strides
	Device   string   // "cpu" (any CPU-readable memory, the default), "any", or a device name such as "cuda"
	Writable bool     // the function writes the tensor: it must be writable and not overlap itself
	Convert  bool     // a tensor of another dtype or order is copied into what is asked (with Writable: another order only, written back)
}

// ParseTensor reads an annotation "tensor" or "tensor[item, …]", whose items
// are, in any order: dtypes joined by '|' ("float32|float64"), a shape
// "(2, *, 3)" ("*" for any size, "()" for 0-d), "C" or "F" for contiguity,
// "writable", "convert" and "device=name". Any other annotation, or none,
// is not a tensor annotation: ok is false.
func ParseTensor(a string) (t Tensor, ok bool, err error) {
	if a == "tensor" {
		return Tensor{Device: "cpu"}, true, nil
	}
	if !strings.HasPrefix(a, "tensor[") || !strings.HasSuffix(a, "]") {
		return Tensor{}, false, nil
	}
	t.Device = "cpu"
	items, err := split(a[len("tensor[") : len(a)-1])
	if err != nil {
		return Tensor{}, true, err
	}
	for _, it := range items {
		switch {
		case it == "C" || it == "F":
			t.Order = it[0]
		case it == "writable":
			t.Writable = true
		case it == "convert":
			t.Convert = true
		case strings.HasPrefix(it, "device="):
			t.Device = strings.TrimSpace(it[len("device="):])
		case strings.HasPrefix(it, "(") && strings.HasSuffix(it, ")"):
			t.Shape = []int64{}
			dims, err := split(it[1 : len(it)-1])
			if err != nil {
				return Tensor{}, true, err
			}
			for i, d := range dims {
				switch {
				case d == "" && len(dims) == 1 || d == "" && i == len(dims)-1 && i > 0:
					continue // "()" or a trailing comma
				case d == "*":
					t.Shape = append(t.Shape, -1)
				default:
					n, err := strconv.ParseInt(d, 10, 64)
					if err != nil || n < 0 {
						return Tensor{}, true, fmt.Errorf("annotation %q: %q is not a size (an int >= 0 or *)", a, d)
					}
					t.Shape = append(t.Shape, n)
				}
			}
		case it != "" && identifier(strings.ReplaceAll(strings.ReplaceAll(it, " ", ""), "|", "_")) && !strings.Contains(strings.ReplaceAll(it, " ", ""), "||"):
			for _, d := range strings.Split(it, "|") {
				t.DTypes = append(t.DTypes, strings.TrimSpace(d))
			}
		default:
			return Tensor{}, true, fmt.Errorf("annotation %q: unknown item %q", a, it)
		}
	}
	return t, true, nil
}
