"""Builds the compiled search kernels (tobruk/mechanics/_kernels.c) and the mask loop (tobruk/engine/_mask.c);
everything else is in pyproject.toml."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "tobruk.mechanics._kernels",
            sources=["tobruk/mechanics/_kernels.c"],
            extra_compile_args=["-O2", "-Wall", "-Wextra"],
        ),
        Extension("tobruk.engine._mask", sources=["tobruk/engine/_mask.c"], extra_compile_args=["-O2", "-Wall", "-Wextra"]),
    ]
)
