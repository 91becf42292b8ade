package pymodule

// The generated files of this package, and what writes each (each has a
// test that fails while it is stale):
//   - adapters_gen.go, the adapters F0 … F10R3E: gen_adapters.go (TestAdaptersGenerated);
//   - kinds.h, the C enum of kinds: the table of kinds.go (TestKindsHeader);
//   - the tensor classes of python/godlpack/_core.pyi: tensor_classes.pyi
//     (TestCoreStubTensorClasses).
//go:generate go run gen_adapters.go
//go:generate go test -run ^(TestKindsHeader|TestCoreStubTensorClasses)$ . -args -update
