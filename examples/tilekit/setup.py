"""Build the extension module tilekit from this directory's Go package with godlpack's build helper."""

from setuptools import setup

from godlpack.build import GoExtension, cmdclass

setup(ext_modules=[GoExtension("tilekit", ".", stub="tilekit.pyi")], cmdclass=cmdclass())
