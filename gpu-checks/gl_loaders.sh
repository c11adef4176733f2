# shellcheck shell=bash
# Sourced (not run) by the GPU checks that open OpenGL: partexp.sh, particles.sh
# and runners.sh's rows marked `gl`. unpack_gl_loaders NAME, from the
# repository root, unpacks the GL loaders carried as Debian packages in .gl/ and
# points glvnd and the loader at NVIDIA's EGL vendor, so that the CUDA–OpenGL
# interop runs instead of being waived. Without .gl/*.deb it says so in one
# line starting with NAME and leaves the machine's loaders as they are.
# The packages are fetched once, on a machine with a network, with
#   mkdir -p .gl /tmp/amd64/partial; o='-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=/tmp/amd64'
#   apt-get $o update; (cd .gl && apt-get $o download libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2)
unpack_gl_loaders() {
    local package nvidia_json=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
    if compgen -G ".gl/*.deb" >/dev/null; then
        for package in .gl/*.deb; do dpkg -x "$package" /; done
        ldconfig
    else
        echo "$1: no .gl/*.deb to unpack; using whatever EGL/GL loaders the machine has"
    fi
    # glvnd looks for vendor files in /usr/share and /etc; NVIDIA's is elsewhere in these containers.
    if [ -z "${__EGL_VENDOR_LIBRARY_FILENAMES:-}" ] && [ -f "$nvidia_json" ]; then
        export __EGL_VENDOR_LIBRARY_FILENAMES=$nvidia_json
    fi
    if [ -d /usr/local/nvidia/lib64 ]; then
        export LD_LIBRARY_PATH=/usr/local/nvidia/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    fi
}
