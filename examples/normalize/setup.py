"""Build the extension module normalize from this directory's Go package with godlpack's build helper."""

from setuptools import setup

from godlpack.build import GoExtension, cmdclass

setup(ext_modules=[GoExtension("normalize", ".", stub="normalize.pyi")], cmdclass=cmdclass())
