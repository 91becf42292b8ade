"""Build the extension module rowstats from this directory's Go package with godlpack's build helper."""

from setuptools import setup

from godlpack.build import GoExtension, cmdclass

setup(ext_modules=[GoExtension("rowstats", ".", stub="rowstats.pyi")], cmdclass=cmdclass())
