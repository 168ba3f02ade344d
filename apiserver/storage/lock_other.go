//go:build !unix

package storage

import "os"

// lockDir takes no lock here: on this system a second process could open
// the directory too (Load then refuses the logs they wrote at once).
func lockDir(dir string) (*os.File, error) {
	return os.Open(dir)
}
