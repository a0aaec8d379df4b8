"""Build the warpmatch Python package against the installed C library.

The C library is found with `pkg-config --cflags --libs warpmatch`. For a
library installed under a prefix pkg-config does not search, set
WARPMATCH_PREFIX=/that/prefix: its lib*/pkgconfig folders are searched first,
and without a warpmatch.pc there the build uses PREFIX/include and
-L PREFIX/lib -lwarpmatch. Library folders found either way are recorded as
the extension's run path, so `import warpmatch` finds libwarpmatch.so there
without LD_LIBRARY_PATH.

Offline, from Debian packages only (python3-setuptools, python3-numpy,
python3-dev, pkg-config):

    pip install --no-build-isolation --no-deps ./python
"""
import os
import re
import shlex
import subprocess
import sys

import numpy
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


HERE = os.path.dirname(os.path.abspath(__file__))


def package_version():
    with open(os.path.join(HERE, "warpmatch", "__init__.py")) as f:
        return re.search(r'^__version__ = "([^"]+)"', f.read(), re.M).group(1)


def pkg_config_dirs(prefix):
    """The pkgconfig folders an install under `prefix` may have."""
    multiarch = []
    try:
        out = subprocess.run(["gcc", "-print-multiarch"], capture_output=True, text=True)
        if out.returncode == 0 and out.stdout.strip():
            multiarch = [os.path.join("lib", out.stdout.strip(), "pkgconfig")]
    except OSError:
        pass
    subdirs = ["lib/pkgconfig", "lib64/pkgconfig"] + multiarch + ["share/pkgconfig"]
    return [os.path.join(prefix, d) for d in subdirs]


def warpmatch_flags():
    """(cflags, libs) of the installed library, as argument lists."""
    env = dict(os.environ)
    prefix = os.environ.get("WARPMATCH_PREFIX")
    if prefix:
        dirs = [d for d in pkg_config_dirs(prefix) if os.path.isdir(d)]
        env["PKG_CONFIG_PATH"] = os.pathsep.join(dirs + [env.get("PKG_CONFIG_PATH", "")])
    try:
        run = lambda what: subprocess.run(["pkg-config", what, "warpmatch"], env=env,
                                          capture_output=True, text=True, check=True).stdout
        return shlex.split(run("--cflags")), shlex.split(run("--libs"))
    except (OSError, subprocess.CalledProcessError) as e:
        if prefix:
            libdir = next((os.path.join(prefix, d) for d in ("lib", "lib64")
                           if os.path.isdir(os.path.join(prefix, d))), os.path.join(prefix, "lib"))
            # No .pc: a static libwarpmatch.a needs the library's own
            # dependencies as well (harmless beside a shared one).
            return (["-I" + os.path.join(prefix, "include")],
                    ["-L" + libdir, "-lwarpmatch", "-lz", "-lpthread", "-lm"])
        why = e.stderr.strip() if isinstance(e, subprocess.CalledProcessError) else str(e)
        sys.exit("warpmatch: the C library was not found by `pkg-config warpmatch` (%s).\n"
                 "Install it (cmake --install) and set PKG_CONFIG_PATH, or set "
                 "WARPMATCH_PREFIX to its install prefix." % why)


def extension():
    cflags, libs = warpmatch_flags()
    include_dirs = [numpy.get_include()]
    library_dirs, libraries, objects, extra_compile, extra_link = [], [], [], [], []
    for f in cflags:
        if f.startswith("-I"):
            include_dirs.append(os.path.normpath(f[2:]))
        else:
            extra_compile.append(f)
    for f in libs:
        if f.startswith("-L"):  # ${pcfiledir}/../../lib reads better as /prefix/lib
            library_dirs.append(os.path.normpath(f[2:]))
        elif f.startswith("-l"):
            libraries.append(f[2:])
        elif f.endswith((".a", ".o", ".so")) or ".so." in f:
            objects.append(f)  # a library by path: linked before the -l ones it needs
        else:
            extra_link.append(f)  # a static archive by path, -pthread, ...
    sources = ["module.c", "context.c", "inputs.c", "search.c", "align.c", "dtw.c"]
    return Extension(
        "warpmatch._warpmatch",
        sources=[os.path.join("src", s) for s in sources],
        depends=[os.path.join("src", "wmpy.h")],
        include_dirs=include_dirs,
        library_dirs=library_dirs,
        runtime_library_dirs=library_dirs,
        libraries=libraries,
        extra_objects=objects,
        extra_compile_args=["-std=c11", "-Wall", "-Wextra", "-Wno-unused-parameter",
                            "-Wno-missing-field-initializers"] + extra_compile,
        extra_link_args=extra_link,
    )


class build_ext_always(build_ext):
    """Build the module every time: an older build/ folder made against
    another installed library would otherwise be reused as it stands (its
    sources did not change)."""

    def finalize_options(self):
        super().finalize_options()
        self.force = True


setup(
    name="warpmatch",
    cmdclass={"build_ext": build_ext_always},
    version=package_version(),
    description="Exact and approximate string search, alignment and DTW on CPUs and GPUs",
    long_description=open(os.path.join(HERE, "README.md")).read(),
    long_description_content_type="text/markdown",
    license="MIT",
    packages=["warpmatch"],
    ext_modules=[extension()],
    python_requires=">=3.8",
    install_requires=["numpy"],
    zip_safe=False,
)
