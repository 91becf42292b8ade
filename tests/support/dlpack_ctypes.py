"""The ctypes DLPack decoder and capsule builder: godlpack.check's _dlpack module (see checker_modules)."""

from checker_modules import load

_module = load("_dlpack")
globals().update({k: v for k, v in vars(_module).items() if not k.startswith("__")})
