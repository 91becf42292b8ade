package dlpack

import "strconv"

// DeviceType identifies the kind of memory a tensor's data lives in. Its
// values are those of the C enum DLDeviceType, which is int32-sized.
type DeviceType int32

// Device types of DLPack 1.3, and those dmlc/dlpack's main branch added
// after it without changing the minor version ([TPU], [TPUHost], [Ascend]).
// Values 5 and 6 are unused by the specification.
const (
	CPU         DeviceType = 1
	CUDA        DeviceType = 2
	CUDAHost    DeviceType = 3 // pinned CUDA host memory
	OpenCL      DeviceType = 4
	Vulkan      DeviceType = 7
	Metal       DeviceType = 8
	VPI         DeviceType = 9
	ROCM        DeviceType = 10
	ROCMHost    DeviceType = 11 // pinned ROCm host memory
	ExtDev      DeviceType = 12
	CUDAManaged DeviceType = 13 // CUDA unified memory
	OneAPI      DeviceType = 14
	WebGPU      DeviceType = 15
	Hexagon     DeviceType = 16
	MAIA        DeviceType = 17
	Trn         DeviceType = 18
	TPU         DeviceType = 19
	TPUHost     DeviceType = 20 // pinned TPU host memory
	Ascend      DeviceType = 21
)

var deviceTypeNames = [...]string{
	CPU:         "cpu",
	CUDA:        "cuda",
	CUDAHost:    "cuda_host",
	OpenCL:      "opencl",
	Vulkan:      "vulkan",
	Metal:       "metal",
	VPI:         "vpi",
	ROCM:        "rocm",
	ROCMHost:    "rocm_host",
	ExtDev:      "ext_dev",
	CUDAManaged: "cuda_managed",
	OneAPI:      "oneapi",
	WebGPU:      "webgpu",
	Hexagon:     "hexagon",
	MAIA:        "maia",
	Trn:         "trn",
	TPU:         "tpu",
	TPUHost:     "tpu_host",
	Ascend:      "ascend",
}

// Known reports whether t is one of the device types defined by DLPack 1.3
// or added after it ([TPU], [TPUHost], [Ascend]).
func (t DeviceType) Known() bool {
	return t >= 0 && int(t) < len(deviceTypeNames) && deviceTypeNames[t] != ""
}

// String returns the lower-case name of t, such as "cpu" or "cuda_host",
// or "device_type(N)" for a value DLPack 1.3 does not define.
func (t DeviceType) String() string {
	if t.Known() {
		return deviceTypeNames[t]
	}
	return "device_type(" + strconv.FormatInt(int64(t), 10) + ")"
}

// CPUAccessible reports whether the host CPU can read and write memory of
// device type t directly, without a device copy.
func (t DeviceType) CPUAccessible() bool {
	switch t {
	case CPU, CUDAHost, ROCMHost, CUDAManaged, TPUHost:
		return true
	}
	return false
}

// Device identifies one device: a device type and an ordinal within it. It
// has the layout of the C struct DLDevice.
type Device struct {
	Type DeviceType // the kind of device
	ID   int32      // which device of its type, counting from 0
}

// ParseDeviceType returns the device type [DeviceType.String] names, such as
// "cuda" or "tpu_host"; false for any other name.
func ParseDeviceType(name string) (DeviceType, bool) {
	for t, n := range deviceTypeNames {
		if n != "" && n == name {
			return DeviceType(t), true
		}
	}
	return 0, false
}

// String returns the device as "type:id", for example "cpu:0".
func (d Device) String() string {
	return d.Type.String() + ":" + strconv.FormatInt(int64(d.ID), 10)
}
