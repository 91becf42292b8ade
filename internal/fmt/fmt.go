// Package fmt formats the messages of godlpack's errors and panics: the part
// of the standard library's fmt that godlpack's packages use ([Errorf],
// [Sprintf], [Sprint], [Fprintf], [Fprintln], [Stringer]), which writes
// what fmt writes for the verbs they use: %v, %s, %d, %q, %x, %g, %T, %w
// and %%, with the flags + and #. It leaves out what makes fmt large in
// every program that calls it (120 KB of a Go extension's shared library,
// bench/sizes.py): its Formatter and GoStringer interfaces, widths and
// precisions, and the printing of maps, channels and functions, which it
// writes as %!v(TYPE). Structs, pointers, slices and arrays print as fmt
// prints them; errors and Stringers by their methods, where fmt calls them.
package fmt

import (
	"errors"
	stdfmt "fmt"
	"io"
	"reflect"
	"strconv"
	"unicode/utf8"
)

// Stringer is implemented by any value that has a String method, which
// defines its format for %v and %s, as fmt's Stringer.
type Stringer interface {
	String() string
}

// Sprintf formats according to a format specifier and returns the
// resulting string, as fmt.Sprintf does for the verbs this package knows.
func Sprintf(format string, a ...any) string {
	if vet {
		return stdfmt.Sprintf(format, a...)
	}
	var p printer
	p.printf(format, a)
	return string(p.buf)
}

// Errorf formats as [Sprintf] and returns the string as an error. As
// fmt.Errorf, an operand of %w that is an error is wrapped: the error's
// Unwrap returns it (or, for several, all of them).
func Errorf(format string, a ...any) error {
	if vet {
		return stdfmt.Errorf(format, a...)
	}
	var p printer
	p.wrap = true
	p.printf(format, a)
	msg := string(p.buf)
	switch len(p.wrapped) {
	case 0:
		return errors.New(msg)
	case 1:
		return &wrapError{msg, p.wrapped[0]}
	}
	return &wrapErrors{msg, p.wrapped}
}

type wrapError struct {
	msg string
	err error
}

func (e *wrapError) Error() string { return e.msg }
func (e *wrapError) Unwrap() error { return e.err }

type wrapErrors struct {
	msg  string
	errs []error
}

func (e *wrapErrors) Error() string   { return e.msg }
func (e *wrapErrors) Unwrap() []error { return e.errs }

// Sprint formats its operands as %v does and returns the string, with a
// space between two operands when neither is a string, as fmt.Sprint.
func Sprint(a ...any) string {
	if vet {
		return stdfmt.Sprint(a...)
	}
	var p printer
	for i, arg := range a {
		_, isString := arg.(string)
		if i > 0 && !isString && !p.lastString {
			p.buf = append(p.buf, ' ')
		}
		p.arg(arg, 'v')
		p.lastString = isString
	}
	return string(p.buf)
}

// Fprintf formats as [Sprintf] and writes the result to w.
func Fprintf(w io.Writer, format string, a ...any) (int, error) {
	if vet {
		return stdfmt.Fprintf(w, format, a...)
	}
	return io.WriteString(w, Sprintf(format, a...))
}

// Fprintln formats its operands as %v does, with spaces between them and a
// newline after, and writes them to w, as fmt.Fprintln.
func Fprintln(w io.Writer, a ...any) (int, error) {
	if vet {
		return stdfmt.Fprintln(w, a...)
	}
	var p printer
	for i, arg := range a {
		if i > 0 {
			p.buf = append(p.buf, ' ')
		}
		p.arg(arg, 'v')
	}
	return w.Write(append(p.buf, '\n'))
}

// A printer writes one formatted string.
type printer struct {
	buf         []byte
	plus, sharp bool // the flags of the verb being written
	wrap        bool // Errorf: %w wraps its operand
	wrapped     []error
	lastString  bool // Sprint: the last operand was a string
}

func (p *printer) printf(format string, a []any) {
	n := 0
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' {
			p.buf = append(p.buf, c)
			continue
		}
		p.plus, p.sharp = false, false
		for i+1 < len(format) && (format[i+1] == '+' || format[i+1] == '#') {
			i++
			p.plus = p.plus || format[i] == '+'
			p.sharp = p.sharp || format[i] == '#'
		}
		if i+1 == len(format) {
			p.buf = append(p.buf, "%!(NOVERB)"...)
			break
		}
		verb, size := utf8.DecodeRuneInString(format[i+1:])
		i += size
		switch {
		case verb == '%':
			p.buf = append(p.buf, '%')
		case n >= len(a):
			p.buf = append(append(append(p.buf, "%!"...), string(verb)...), "(MISSING)"...)
		case verb == 'w':
			err, ok := a[n].(error)
			if !p.wrap || !ok {
				p.bad(verb, a[n])
			} else {
				p.wrapped = append(p.wrapped, err)
				p.arg(err, 'v')
			}
			n++
		default:
			p.arg(a[n], verb)
			n++
		}
	}
	if n < len(a) {
		p.buf = append(p.buf, "%!(EXTRA "...)
		for i, arg := range a[n:] {
			if i > 0 {
				p.buf = append(p.buf, ", "...)
			}
			p.typed(arg)
		}
		p.buf = append(p.buf, ')')
	}
}

// bad writes the operand of a verb that does not take it, as fmt does: %!d(string=hi).
func (p *printer) bad(verb rune, a any) {
	p.buf = append(append(append(p.buf, "%!"...), string(verb)...), '(')
	p.typed(a)
	p.buf = append(p.buf, ')')
}

// typed writes a as TYPE=VALUE, or <nil>.
func (p *printer) typed(a any) {
	if a == nil {
		p.buf = append(p.buf, "<nil>"...)
		return
	}
	p.buf = append(append(p.buf, reflect.TypeOf(a).String()...), '=')
	p.arg(a, 'v')
}

// arg writes one operand with a verb.
func (p *printer) arg(a any, verb rune) {
	switch {
	case verb == 'T':
		if a == nil {
			p.buf = append(p.buf, "<nil>"...)
		} else {
			p.buf = append(p.buf, reflect.TypeOf(a).String()...)
		}
		return
	case a == nil:
		if verb == 'v' {
			p.buf = append(p.buf, "<nil>"...)
		} else {
			p.bad(verb, a)
		}
		return
	}
	if p.method(a, verb) {
		return
	}
	p.value(reflect.ValueOf(a), verb)
}

// method writes a by its Error or String method, for the verbs fmt calls
// them for, and reports whether it did. A method that panics on a nil
// receiver writes <nil>, as fmt does.
func (p *printer) method(a any, verb rune) (done bool) {
	if verb != 'v' && verb != 's' && verb != 'q' && verb != 'x' && verb != 'X' {
		return false
	}
	var text func() string
	switch a := a.(type) {
	case error:
		text = a.Error
	case Stringer:
		text = a.String
	default:
		return false
	}
	defer func() {
		if r := recover(); r != nil {
			if v := reflect.ValueOf(a); v.Kind() == reflect.Pointer && v.IsNil() {
				p.buf, done = append(p.buf, "<nil>"...), true
				return
			}
			panic(r)
		}
	}()
	p.text(text(), verb)
	return true
}

// text writes a string with a verb.
func (p *printer) text(s string, verb rune) {
	switch verb {
	case 'v', 's':
		p.buf = append(p.buf, s...)
	case 'q':
		p.buf = strconv.AppendQuote(p.buf, s)
	case 'x', 'X':
		p.hex(s, verb)
	default:
		p.bad(verb, s)
	}
}

func (p *printer) hex(s string, verb rune) {
	digits := "0123456789abcdef"
	if verb == 'X' {
		digits = "0123456789ABCDEF"
	}
	if p.sharp && len(s) > 0 {
		p.buf = append(p.buf, '0', byte(verb))
	}
	for i := 0; i < len(s); i++ {
		p.buf = append(p.buf, digits[s[i]>>4], digits[s[i]&0xf])
	}
}

// value writes v with a verb, by its kind.
func (p *printer) value(v reflect.Value, verb rune) {
	switch v.Kind() {
	case reflect.Bool:
		if verb != 'v' && verb != 't' {
			p.badValue(verb, v)
			return
		}
		p.buf = strconv.AppendBool(p.buf, v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		p.integer(uint64(v.Int()), v.Int() < 0, verb, v)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		p.integer(v.Uint(), false, verb, v)
	case reflect.Float32, reflect.Float64:
		if verb != 'v' && verb != 'g' {
			p.badValue(verb, v)
			return
		}
		p.float(v.Float(), v.Type().Bits(), p.plus)
	case reflect.Complex64, reflect.Complex128:
		if verb != 'v' && verb != 'g' {
			p.badValue(verb, v)
			return
		}
		c, bits := v.Complex(), v.Type().Bits()/2
		p.buf = append(p.buf, '(')
		p.float(real(c), bits, p.plus)
		p.float(imag(c), bits, true)
		p.buf = append(p.buf, "i)"...)
	case reflect.String:
		p.text(v.String(), verb)
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.Uint8 && (verb == 's' || verb == 'q' || verb == 'x') {
			p.text(string(v.Bytes()), verb)
			return
		}
		p.buf = append(p.buf, '[')
		for i := range v.Len() {
			if i > 0 {
				p.buf = append(p.buf, ' ')
			}
			p.element(v.Index(i), verb)
		}
		p.buf = append(p.buf, ']')
	case reflect.Struct:
		p.buf = append(p.buf, '{')
		for i := range v.NumField() {
			if i > 0 {
				p.buf = append(p.buf, ' ')
			}
			if p.plus {
				p.buf = append(append(p.buf, v.Type().Field(i).Name...), ':')
			}
			p.element(v.Field(i), verb)
		}
		p.buf = append(p.buf, '}')
	case reflect.Pointer:
		if e := v.Elem(); e.IsValid() && (e.Kind() == reflect.Struct || e.Kind() == reflect.Slice || e.Kind() == reflect.Array) {
			p.buf = append(p.buf, '&')
			p.value(e, verb)
			return
		}
		p.pointer(v, verb)
	case reflect.Interface:
		if v.IsNil() {
			p.buf = append(p.buf, "<nil>"...)
			return
		}
		p.element(v.Elem(), verb)
	case reflect.UnsafePointer:
		p.pointer(v, verb)
	default:
		p.badValue(verb, v)
	}
}

// element writes a part of a value: by its methods where it has them and
// may be called, as fmt does.
func (p *printer) element(v reflect.Value, verb rune) {
	if v.CanInterface() && (v.Kind() != reflect.Pointer || !v.IsNil()) && p.method(v.Interface(), verb) {
		return
	}
	if v.Kind() == reflect.Pointer {
		p.pointer(v, verb) // a pointer below the top prints as its address, as fmt's
		return
	}
	p.value(v, verb)
}

func (p *printer) pointer(v reflect.Value, verb rune) {
	if verb != 'v' {
		p.badValue(verb, v)
		return
	}
	if v.IsNil() {
		p.buf = append(p.buf, "<nil>"...)
		return
	}
	p.buf = strconv.AppendUint(append(p.buf, "0x"...), uint64(v.Pointer()), 16)
}

func (p *printer) badValue(verb rune, v reflect.Value) {
	p.buf = append(append(append(p.buf, "%!"...), string(verb)...), '(')
	p.buf = append(p.buf, v.Type().String()...)
	if v.CanInterface() {
		switch v.Kind() {
		case reflect.Map, reflect.Chan, reflect.Func:
		default:
			p.buf = append(p.buf, '=')
			p.value(v, 'v')
		}
	}
	p.buf = append(p.buf, ')')
}

// integer writes an integer, of magnitude u (negative when neg), with a verb.
func (p *printer) integer(u uint64, neg bool, verb rune, v reflect.Value) {
	switch verb {
	case 'v', 'd':
		if neg {
			p.buf = strconv.AppendInt(p.buf, int64(u), 10)
		} else {
			if p.plus {
				p.buf = append(p.buf, '+')
			}
			p.buf = strconv.AppendUint(p.buf, u, 10)
		}
	case 'x', 'X':
		if neg {
			p.buf = append(p.buf, '-')
			u = -u
		}
		if p.sharp {
			p.buf = append(p.buf, '0', byte(verb))
		}
		start := len(p.buf)
		p.buf = strconv.AppendUint(p.buf, u, 16)
		if verb == 'X' {
			for i := start; i < len(p.buf); i++ {
				if c := p.buf[i]; 'a' <= c && c <= 'f' {
					p.buf[i] = c - 'a' + 'A'
				}
			}
		}
	case 'c':
		p.buf = utf8.AppendRune(p.buf, rune(u))
	case 'q':
		p.buf = strconv.AppendQuoteRune(p.buf, rune(u))
	default:
		p.badValue(verb, v)
	}
}

// float writes f (of bits bits) as %g does, with its sign where plus.
func (p *printer) float(f float64, bits int, plus bool) {
	start := len(p.buf)
	p.buf = strconv.AppendFloat(p.buf, f, 'g', -1, bits)
	if c := p.buf[start]; plus && c != '-' && c != '+' {
		p.buf = append(p.buf[:start+1], p.buf[start:]...)
		p.buf[start] = '+'
	}
}

// vet is false: the calls of the standard fmt above are never compiled in,
// and are there for go vet, which checks the calls of a function that
// passes its format and operands on to fmt's as it checks fmt's own.
const vet = false
