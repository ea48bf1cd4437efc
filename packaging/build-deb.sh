#!/usr/bin/env bash
# The Debian package from a tree that `make install DESTDIR=ROOT PREFIX=/usr` staged: the
# control file (the version from the binary's --version, the dependencies from the libraries
# it links, as dpkg-shlibdeps finds them), the maintainer scripts and conffiles of
# packaging/debian, md5sums; then dpkg-deb, compressing with DEB_COMPRESSION (xz unless set;
# the tests use none). Prints the package's path.
# usage: build-deb.sh ROOT OUTDIR
set -euo pipefail
root=$1 out=$2
here=$(cd "$(dirname "$0")" && pwd)
binary=$root/usr/bin/aviator-adsb

version=$("$binary" --version | awk '{print $2}')
arch=$(dpkg --print-architecture)

# dpkg-shlibdeps reads the layout of a Debian source tree: debian/control, and the package's
# files in debian/PACKAGE with their DEBIAN folder. The package's own control is made below.
install -d -m 755 "$root/DEBIAN"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/debian"
printf 'Source: aviator-adsb\n\nPackage: aviator-adsb\nArchitecture: any\n' > "$work/debian/control"
ln -s "$(realpath "$root")" "$work/debian/aviator-adsb"
shlibs=$(cd "$work" && dpkg-shlibdeps -O --ignore-missing-info debian/aviator-adsb/usr/bin/aviator-adsb)
depends=${shlibs#shlibs:Depends=}
# The Swift runtime comes from no Debian package: a build that links it dynamically (not
# `make release`) runs only where the toolchain is installed.
if objdump -p "$binary" | grep -q 'NEEDED.*libswiftCore'; then
    echo "warning: $binary links the Swift runtime dynamically; the package runs only where the Swift toolchain is installed" >&2
fi

sed -e "s|@VERSION@|$version|" -e "s|@ARCH@|$arch|" -e "s|@DEPENDS@|$depends, passwd|" \
    -e "s|@SIZE@|$(du -sk --exclude=DEBIAN "$root" | cut -f1)|" "$here/debian/control.in" > "$root/DEBIAN/control"
install -m 644 "$here/debian/conffiles" "$root/DEBIAN/conffiles"
install -m 755 "$here/debian/postinst" "$here/debian/prerm" "$here/debian/postrm" "$root/DEBIAN/"
(cd "$root" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | xargs -0 md5sum) > "$root/DEBIAN/md5sums"
chmod 644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"

mkdir -p "$out"
package=$out/aviator-adsb_${version}_${arch}.deb
dpkg-deb --root-owner-group -Z"${DEB_COMPRESSION:-xz}" --build "$root" "$package" >/dev/null
echo "$package"
