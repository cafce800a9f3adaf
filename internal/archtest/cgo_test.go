package archtest

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/robocensus/robocensus/internal/testutil"
)

// TestBuildsWithoutCgo (issue 27 item 13): every package of the
// repository, its tests included, builds without cgo, which is what Go does
// where there is no C compiler. Only DuckDB needs cgo, and it is reached
// through the build-tagged files of testutil (and of scripts/dscompare), so
// that the packages that do not need DuckDB by themselves (robots, schema's
// Parquet tests, ingest/archive, ...) build and pass without a C compiler,
// and DuckDB tests skip there with testutil.DuckDBSkipMessage. It asks
// go list, which loads the packages and their imports without compiling.
func TestBuildsWithoutCgo(t *testing.T) {
	cmd := exec.Command("go", "list", "-e", "-deps", "-test",
		"-f", "{{if .Error}}{{.ImportPath}}: {{.Error}}\n{{end}}{{range .DepsErrors}}{{$.ImportPath}}: {{.}}\n{{end}}", "./...")
	cmd.Dir = testutil.RepoRoot()
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	if msg := strings.TrimSpace(string(out)); msg != "" {
		t.Errorf("without cgo, packages do not build:\n%s", msg)
	}
}
