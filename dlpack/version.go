package dlpack

import "strconv"

// The DLPack ABI version this package speaks, and the most dimensions it
// accepts from a producer.
const (
	MajorVersion = 1
	MinorVersion = 3
	// MaxNDim bounds the dimension count so that per-dimension work can
	// use fixed-size arrays and a hostile producer cannot make a consumer
	// allocate without limit.
	MaxNDim = 64
)

// Version is a DLPack ABI version. It has the layout of the C struct
// DLPackVersion.
type Version struct {
	Major, Minor uint32 // the major and the minor version numbers
}

// Current is the ABI version this package implements.
var Current = Version{MajorVersion, MinorVersion}

// Less reports whether v is an older version than w.
func (v Version) Less(w Version) bool {
	if v.Major != w.Major {
		return v.Major < w.Major
	}
	return v.Minor < w.Minor
}

// String returns the version as "major.minor", for example "1.3".
func (v Version) String() string {
	return strconv.FormatUint(uint64(v.Major), 10) + "." + strconv.FormatUint(uint64(v.Minor), 10)
}
