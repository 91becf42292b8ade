package dlpack

import (
	"strconv"
	"strings"
)

// Flags holds the bits of DLManagedTensorVersioned.flags.
type Flags uint64

// Flag bits defined by DLPack 1.3.
const (
	// ReadOnly says the consumer must not write to the tensor's data.
	ReadOnly Flags = 1 << 0
	// IsCopied says the producer copied the data for this export, so the
	// consumer owns the only reference to it.
	IsCopied Flags = 1 << 1
	// IsSubbyteTypePadded says each element of a data type narrower than
	// a byte occupies a whole byte; without it such elements are packed.
	IsSubbyteTypePadded Flags = 1 << 2
)

// KnownFlags holds every flag bit DLPack 1.3 defines. A producer's other
// bits have a meaning this package cannot know.
const KnownFlags = ReadOnly | IsCopied | IsSubbyteTypePadded

var flagNames = [...]struct {
	f    Flags
	name string
}{
	{ReadOnly, "READ_ONLY"},
	{IsCopied, "IS_COPIED"},
	{IsSubbyteTypePadded, "IS_SUBBYTE_TYPE_PADDED"},
}

// Has reports whether every bit of g is set in f.
func (f Flags) Has(g Flags) bool { return f&g == g }

// String returns the set bits joined by "|", such as "READ_ONLY|IS_COPIED".
// Bits DLPack 1.3 does not define appear as one hexadecimal term; no bits
// at all is "0".
func (f Flags) String() string {
	if f == 0 {
		return "0"
	}
	var parts []string
	for _, n := range flagNames {
		if f&n.f != 0 {
			parts = append(parts, n.name)
			f &^= n.f
		}
	}
	if f != 0 {
		parts = append(parts, "0x"+strconv.FormatUint(uint64(f), 16))
	}
	return strings.Join(parts, "|")
}
