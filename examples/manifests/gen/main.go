package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/kitchensync/kitchensync/examples/internal/manifests"
)

func main() {
	if err := write("examples/manifests"); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func write(dir string) error {
	files, err := manifests.Files()
	if err != nil {
		return err
	}
	for name, b := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, b, 0o644); err != nil {
			return err
		}
	}
	return nil
}
