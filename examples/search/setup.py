"""Build the extension module search from this directory's Go package with godlpack's build helper."""

from setuptools import setup

from godlpack.build import GoExtension, cmdclass

setup(ext_modules=[GoExtension("search", ".", stub="search.pyi")], cmdclass=cmdclass())
