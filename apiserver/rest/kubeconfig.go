package rest

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Kubeconfig is a kubeconfig file, as kubectl reads it: named clusters
// (where), users (who) and contexts (a cluster, a user and a namespace
// together), and the context in use. Load one with [LoadKubeconfig], then
// ask it for a [Config] with [Kubeconfig.Config].
//
// Supported: server, certificate-authority(-data), insecure-skip-tls-verify,
// tls-server-name; token, tokenFile, client-certificate(-data),
// client-key(-data). Not supported, and refused with a [*ConfigError] naming
// the field: exec and auth-provider credential plugins, basic auth,
// impersonation, proxies. Only one file is read (no KUBECONFIG merging).
type Kubeconfig struct {
	// Path is the file the config was read from; relative file names in
	// it are relative to its folder.
	Path string
	// CurrentContext is the context used when none is named.
	CurrentContext string `yaml:"current-context"`
	// Clusters, Users and Contexts are the named entries, in file order.
	Clusters []NamedCluster `yaml:"clusters"`
	Users    []NamedUser    `yaml:"users"`
	Contexts []NamedContext `yaml:"contexts"`
}

// NamedCluster is one entry of a kubeconfig's clusters.
type NamedCluster struct {
	Name    string  `yaml:"name"`
	Cluster Cluster `yaml:"cluster"`
}

// Cluster says where a server is and how to trust it.
type Cluster struct {
	Server                   string `yaml:"server"`
	CertificateAuthority     string `yaml:"certificate-authority"`
	CertificateAuthorityData string `yaml:"certificate-authority-data"` // base64 of PEM
	InsecureSkipTLSVerify    bool   `yaml:"insecure-skip-tls-verify"`
	TLSServerName            string `yaml:"tls-server-name"`
	ProxyURL                 string `yaml:"proxy-url"`
}

// NamedUser is one entry of a kubeconfig's users.
type NamedUser struct {
	Name string   `yaml:"name"`
	User AuthInfo `yaml:"user"`
}

// AuthInfo says who the client is: a bearer token, or a client
// certificate. The fields this package refuses are kept so that it can
// name them.
type AuthInfo struct {
	Token                 string `yaml:"token"`
	TokenFile             string `yaml:"tokenFile"`
	ClientCertificate     string `yaml:"client-certificate"`
	ClientCertificateData string `yaml:"client-certificate-data"` // base64 of PEM
	ClientKey             string `yaml:"client-key"`
	ClientKeyData         string `yaml:"client-key-data"` // base64 of PEM
	Username              string `yaml:"username"`
	Exec                  any    `yaml:"exec"`
	AuthProvider          any    `yaml:"auth-provider"`
	As                    string `yaml:"as"`
}

// NamedContext is one entry of a kubeconfig's contexts.
type NamedContext struct {
	Name    string  `yaml:"name"`
	Context Context `yaml:"context"`
}

// Context ties a cluster and a user together, with a default namespace.
type Context struct {
	Cluster   string `yaml:"cluster"`
	User      string `yaml:"user"`
	Namespace string `yaml:"namespace"`
}

// LoadKubeconfig reads and parses the kubeconfig file at path. Malformed
// YAML, unknown fields and nameless or repeated entries are refused with
// a [*ConfigError] naming the line or the field; references between
// entries are checked when a context is used ([Kubeconfig.Config]).
func LoadKubeconfig(path string) (*Kubeconfig, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, &ConfigError{Source: "kubeconfig " + path, Message: err.Error()}
	}
	return ParseKubeconfig(data, path)
}

// ParseKubeconfig parses a kubeconfig held in memory; path is where it
// came from, for error messages and for resolving relative file names.
func ParseKubeconfig(data []byte, path string) (*Kubeconfig, error) {
	k := &Kubeconfig{Path: path}
	var head struct {
		Kind string `yaml:"kind"`
	}
	if yaml.Unmarshal(data, &head) == nil && head.Kind != "" && head.Kind != "Config" {
		return nil, k.fail("kind", "%q is not a kubeconfig (want kind: Config)", head.Kind)
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var f kubeconfigFile
	if err := dec.Decode(&f); err != nil {
		msg := strings.TrimPrefix(strings.TrimPrefix(err.Error(), "yaml: "), "unmarshal errors:\n  ")
		msg = strings.ReplaceAll(msg, "rest.kubeconfigFile", "rest.Kubeconfig")
		return nil, &ConfigError{Source: k.source(), Message: msg}
	}
	k.CurrentContext, k.Clusters, k.Users, k.Contexts = f.CurrentContext, f.Clusters, f.Users, f.Contexts
	if err := k.checkNames(); err != nil {
		return nil, err
	}
	return k, nil
}

// kubeconfigFile is the file as decoded: the header fields are
// accepted and ignored, except a kind other than Config.
type kubeconfigFile struct {
	APIVersion     string         `yaml:"apiVersion"`
	Kind           string         `yaml:"kind"`
	Preferences    map[string]any `yaml:"preferences"`
	Extensions     []any          `yaml:"extensions"`
	CurrentContext string         `yaml:"current-context"`
	Clusters       []NamedCluster `yaml:"clusters"`
	Users          []NamedUser    `yaml:"users"`
	Contexts       []NamedContext `yaml:"contexts"`
}

// source names the file in errors.
func (k *Kubeconfig) source() string { return "kubeconfig " + k.Path }

// fail returns a [*ConfigError] about field of this file.
func (k *Kubeconfig) fail(field, format string, args ...any) *ConfigError {
	return &ConfigError{Source: k.source(), Field: field, Message: fmt.Sprintf(format, args...)}
}

// checkNames refuses entries without a name, and names used twice.
func (k *Kubeconfig) checkNames() error {
	lists := []struct {
		field string
		names []string
	}{
		{"clusters", namesOf(k.Clusters, func(c NamedCluster) string { return c.Name })},
		{"users", namesOf(k.Users, func(u NamedUser) string { return u.Name })},
		{"contexts", namesOf(k.Contexts, func(c NamedContext) string { return c.Name })},
	}
	for _, l := range lists {
		seen := map[string]bool{}
		for i, name := range l.names {
			switch {
			case name == "":
				return k.fail(fmt.Sprintf("%s[%d].name", l.field, i), "required")
			case seen[name]:
				return k.fail(fmt.Sprintf("%s[%d].name", l.field, i), "%q is used twice", name)
			}
			seen[name] = true
		}
	}
	return nil
}

func namesOf[T any](items []T, name func(T) string) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = name(it)
	}
	return out
}

// resolve makes a file name from the kubeconfig relative to its folder,
// as kubectl does.
func (k *Kubeconfig) resolve(file string) string {
	if file == "" || filepath.IsAbs(file) {
		return file
	}
	return filepath.Join(filepath.Dir(k.Path), file)
}

// decodeData decodes a *-data field (base64 of PEM).
func (k *Kubeconfig) decodeData(field, s string) ([]byte, error) {
	if s == "" {
		return nil, nil
	}
	b, err := base64.StdEncoding.DecodeString(strings.TrimSpace(s))
	if err != nil {
		return nil, k.fail(field, "not valid base64: %v", err)
	}
	return b, nil
}
