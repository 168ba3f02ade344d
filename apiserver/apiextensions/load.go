package apiextensions

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	yaml "go.yaml.in/yaml/v3"
)

// Decode reads the CustomResourceDefinitions in data: YAML or JSON, one
// or more documents separated by "---", as kubebuilder's config/crd/bases
// files hold them. Documents of other kinds, and empty ones, are skipped;
// a document that is not valid YAML, or a definition that does not
// decode, is an error naming the document.
func Decode(data []byte) ([]*CustomResourceDefinition, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var out []*CustomResourceDefinition
	for i := 1; ; i++ {
		var doc any
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("document %d: %w", i, err)
		}
		raw, err := json.Marshal(doc)
		if err != nil {
			return nil, fmt.Errorf("document %d: %w", i, err)
		}
		var tm meta.TypeMeta
		if doc == nil || json.Unmarshal(raw, &tm) != nil || tm.Kind != "CustomResourceDefinition" {
			continue
		}
		if tm.APIVersion != Group+"/"+Version {
			return nil, fmt.Errorf("document %d: CustomResourceDefinition in %q: only %s/%s is served", i, tm.APIVersion, Group, Version)
		}
		crd := &CustomResourceDefinition{}
		if err := json.Unmarshal(raw, crd); err != nil {
			return nil, fmt.Errorf("document %d: %w", i, err)
		}
		out = append(out, crd)
	}
}

// ReadFiles reads the definitions in the files and directories named by
// paths (a directory's .yaml, .yml and .json files, not its
// subdirectories, as controller-runtime's envtest reads
// CRDDirectoryPaths), in name order.
func ReadFiles(paths ...string) ([]*CustomResourceDefinition, error) {
	var out []*CustomResourceDefinition
	for _, p := range paths {
		files, err := crdFiles(p)
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				return nil, err
			}
			crds, err := Decode(data)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", f, err)
			}
			out = append(out, crds...)
		}
	}
	return out, nil
}

func crdFiles(path string) ([]string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return []string{path}, nil
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if ext := strings.ToLower(filepath.Ext(e.Name())); !e.IsDir() && slices.Contains([]string{".yaml", ".yml", ".json"}, ext) {
			out = append(out, filepath.Join(path, e.Name()))
		}
	}
	return out, nil
}

// Apply creates each definition on api, or updates it if one of its
// name exists, and returns them as stored. On a server that [Install]
// serves, a definition is established when Apply returns, unless its
// names clash (see its NamesAccepted condition) or another goroutine is
// writing definitions at the same moment (the controller then works in
// that one: wait for the condition); over HTTP, wait for the
// Established condition, as `kubectl wait` does.
func Apply(ctx context.Context, api client.Interface, crds ...*CustomResourceDefinition) ([]*CustomResourceDefinition, error) {
	c := client.New[*CustomResourceDefinition](api)
	var out []*CustomResourceDefinition
	for _, crd := range crds {
		created, err := c.Create(ctx, crd, meta.CreateOptions{})
		if meta.IsAlreadyExists(err) {
			created, err = update(ctx, c, crd)
		}
		if err != nil {
			return out, err
		}
		if now, err := c.Get(ctx, crd.Name, meta.GetOptions{}); err == nil {
			created = now // with the conditions the controller has set since
		}
		out = append(out, created)
	}
	return out, nil
}

// update replaces the stored definition of crd's name by crd.
func update(ctx context.Context, c *client.Client[*CustomResourceDefinition], crd *CustomResourceDefinition) (*CustomResourceDefinition, error) {
	var out *CustomResourceDefinition
	err := client.RetryOnConflict(client.DefaultRetry, func() error {
		cur, err := c.Get(ctx, crd.Name, meta.GetOptions{})
		if err != nil {
			return err
		}
		next := deepCopyJSON(crd)
		next.ResourceVersion = cur.ResourceVersion
		out, err = c.Update(ctx, next, meta.UpdateOptions{})
		return err
	})
	return out, err
}
