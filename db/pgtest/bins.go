package pgtest

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// bins are the two server programs a private server needs, from one
// folder, so that they are of one version.
type bins struct{ initdb, postgres string }

// findBinaries looks for initdb and postgres side by side in the folders
// of pathList (PATH's form), then in the folders matching libGlob, newest
// version first (Debian installs /usr/lib/postgresql/<version>/bin and
// keeps it off PATH).
func findBinaries(pathList, libGlob string) (bins, error) {
	dirs := filepath.SplitList(pathList)
	lib, _ := filepath.Glob(libGlob) // the only error is a bad pattern
	slices.SortStableFunc(lib, func(a, b string) int {
		return slices.Compare(versionOf(b), versionOf(a))
	})
	for _, d := range append(dirs, lib...) {
		if d == "" {
			continue
		}
		b := bins{filepath.Join(d, "initdb"), filepath.Join(d, "postgres")}
		if isProgram(b.initdb) && isProgram(b.postgres) {
			return b, nil
		}
	}
	return bins{}, errors.New(notFound)
}

// versionOf reads the version of a …/<version>/bin folder, [15] or [9 6],
// or nil (sorted last) if it has none.
func versionOf(binDir string) []int {
	var v []int
	for _, part := range strings.Split(filepath.Base(filepath.Dir(binDir)), ".") {
		n, err := strconv.Atoi(part)
		if err != nil {
			return nil
		}
		v = append(v, n)
	}
	return v
}

// isProgram reports whether p is an executable file.
func isProgram(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular() && st.Mode().Perm()&0o111 != 0
}
