// Package dlpack describes the DLPack 1.x C ABI in Go: versions
// ([Version]), devices ([Device]), data types ([DataType]), flags
// ([Flags]), the tensor structs ([Tensor], [ManagedTensor],
// [ManagedTensorVersioned]), and the rules of tensor layouts
// ([CheckLayout]).
//
// The package is the ABI only. Numbers in narrow float formats are package
// minifloat's, values stored as elements package scalar's, NumPy's arange
// package arange's and strided copies package strided's.
//
// It holds no Python objects. It calls C code for two things: a producer's
// deleter ([Managed.Delete]), and the layout rule, written once in C
// (layout.h) for the C code on the hot paths, which [CheckLayout],
// [ContiguousLayout] and [ContiguousStrides] run: these, and
// [LayoutFaultError], which words the rule's faults, exist only with cgo.
//
// The structs mirror the C structs of dlpack.h field for field, so that a
// pointer to one may be converted to a pointer to the other; the package
// tests check every size, offset, enum value and flag bit against the C
// header and against the published 64-bit layout.
//
// Shapes and strides are always counted in elements, as in DLPack itself;
// byte quantities appear only in [Extent].
//
// Errors from [CheckLayout] and [ContiguousLayout] are always of type
// *[LayoutError], which wraps one of the sentinel errors [ErrTooManyDims],
// [ErrStridesLength], [ErrNegativeDim], [ErrOverflow], [ErrUnknownDataType]
// or [ErrPackedLayout], so callers may test for a kind with [errors.Is] and
// treat every layout error alike with [errors.As]. Errors about data types
// ([DataType.Check], [ParseDataType]) wrap [ErrUnknownDataType].
package dlpack
