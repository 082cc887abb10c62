"""Builds the Cython core (ext/) into agent._core; everything else is in pyproject.toml."""
from Cython.Build import cythonize
from setuptools import Extension, setup

core = Extension(
    "agent._core",
    sources=["ext/_core.pyx"],
    extra_compile_args=["-O3"],
)

setup(
    ext_modules=cythonize(
        [core],
        language_level=3,
        include_path=["ext"],
        compiler_directives={
            "boundscheck": False,
            "wraparound": False,
            "cdivision": True,
            "initializedcheck": False,
        },
    ),
)
