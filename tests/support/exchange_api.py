"""The ctypes model of the DLPack C exchange API: godlpack.check's _exchange module (see checker_modules)."""

from checker_modules import load

_module = load("_exchange")
globals().update({k: v for k, v in vars(_module).items() if not k.startswith("__")})
