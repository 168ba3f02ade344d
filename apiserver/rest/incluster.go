package rest

import (
	"errors"
	"net"
	"os"
	"path/filepath"
)

// ServiceAccountDir is where Kubernetes mounts a pod's service-account
// credentials: the token, the cluster's CA certificate and the namespace.
const ServiceAccountDir = "/var/run/secrets/kubernetes.io/serviceaccount"

// InClusterConfig returns the configuration of a program running in a
// pod: the API server from the KUBERNETES_SERVICE_HOST and
// KUBERNETES_SERVICE_PORT environment variables, the pod's
// service-account token (re-read as kubelet rotates it) and the cluster's
// CA from [ServiceAccountDir], as client-go's rest.InClusterConfig does.
// Outside a pod it fails with a [*ConfigError] naming what is missing.
func InClusterConfig() (*Config, error) {
	return InClusterConfigFrom(os.Getenv, ServiceAccountDir)
}

// InClusterConfigFrom is [InClusterConfig] reading the environment
// through getenv and the credentials from dir: for a program that mounts
// them elsewhere, and for tests.
func InClusterConfigFrom(getenv func(string) string, dir string) (*Config, error) {
	host, port := getenv("KUBERNETES_SERVICE_HOST"), getenv("KUBERNETES_SERVICE_PORT")
	switch {
	case host == "":
		return nil, &ConfigError{Source: "in-cluster", Field: "KUBERNETES_SERVICE_HOST", Message: "not set: not running in a pod?"}
	case port == "":
		return nil, &ConfigError{Source: "in-cluster", Field: "KUBERNETES_SERVICE_PORT", Message: "not set: not running in a pod?"}
	}
	token, ca := filepath.Join(dir, "token"), filepath.Join(dir, "ca.crt")
	if _, err := os.Stat(token); err != nil {
		return nil, &ConfigError{Source: "in-cluster", Field: "token", Message: err.Error()}
	}
	cfg := &Config{
		Host:            "https://" + net.JoinHostPort(host, port),
		BearerTokenFile: token,
		TLSClientConfig: TLSClientConfig{CAFile: ca},
	}
	if _, err := cfg.TLSClientConfig.tlsConfig(); err != nil {
		msg := err.Error()
		if ce, ok := errors.AsType[*ConfigError](err); ok {
			msg = ce.Message
		}
		return nil, &ConfigError{Source: "in-cluster", Field: "ca.crt", Message: msg}
	}
	return cfg, nil
}

// InClusterNamespace returns the namespace of the pod the program runs
// in, from the namespace file in dir (usually [ServiceAccountDir]).
func InClusterNamespace(dir string) (string, error) {
	b, err := os.ReadFile(filepath.Join(dir, "namespace"))
	if err != nil {
		return "", &ConfigError{Source: "in-cluster", Field: "namespace", Message: err.Error()}
	}
	return string(b), nil
}
