package rest

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
)

// Context returns the context name ("" means the current context) and
// its cluster and user entries, or a [*ConfigError] naming the reference
// that leads nowhere, e.g.
//
//	kubeconfig FILE: contexts["dev"].context.cluster: cluster "staging" not found
func (k *Kubeconfig) Context(name string) (Context, Cluster, AuthInfo, error) {
	if name == "" {
		name = k.CurrentContext
	}
	if name == "" {
		return Context{}, Cluster{}, AuthInfo{}, k.fail("current-context", "not set, and no context was named")
	}
	i := slices.IndexFunc(k.Contexts, func(c NamedContext) bool { return c.Name == name })
	if i < 0 {
		field := "current-context"
		if name != k.CurrentContext {
			field = "contexts"
		}
		return Context{}, Cluster{}, AuthInfo{}, k.fail(field, "context %q not found", name)
	}
	ctx := k.Contexts[i].Context
	at := fmt.Sprintf("contexts[%q].context", name)
	ci := slices.IndexFunc(k.Clusters, func(c NamedCluster) bool { return c.Name == ctx.Cluster })
	switch {
	case ctx.Cluster == "":
		return ctx, Cluster{}, AuthInfo{}, k.fail(at+".cluster", "required")
	case ci < 0:
		return ctx, Cluster{}, AuthInfo{}, k.fail(at+".cluster", "cluster %q not found", ctx.Cluster)
	}
	var user AuthInfo
	if ctx.User != "" {
		ui := slices.IndexFunc(k.Users, func(u NamedUser) bool { return u.Name == ctx.User })
		if ui < 0 {
			return ctx, Cluster{}, AuthInfo{}, k.fail(at+".user", "user %q not found", ctx.User)
		}
		user = k.Users[ui].User
	}
	return ctx, k.Clusters[ci].Cluster, user, nil
}

// Namespace returns the namespace of context name ("" for the current
// context), or "default" when the context sets none, as kubectl does.
func (k *Kubeconfig) Namespace(name string) (string, error) {
	ctx, _, _, err := k.Context(name)
	if err != nil {
		return "", err
	}
	if ctx.Namespace == "" {
		return "default", nil
	}
	return ctx.Namespace, nil
}

// Config returns the client configuration of context name ("" for the
// current context): its cluster's server and certificates, its user's
// credentials. Files named in the kubeconfig are checked to exist, and
// data fields to decode, so that a mistake is reported here, naming its
// field, rather than at the first request.
func (k *Kubeconfig) Config(name string) (*Config, error) {
	if name == "" {
		name = k.CurrentContext
	}
	ctx, cluster, user, err := k.Context(name)
	if err != nil {
		return nil, err
	}
	clusterAt := fmt.Sprintf("clusters[%q].cluster", ctx.Cluster)
	userAt := fmt.Sprintf("users[%q].user", ctx.User)
	cfg := &Config{}
	if err := k.clusterConfig(clusterAt, cluster, cfg); err != nil {
		return nil, err
	}
	if err := k.userConfig(userAt, user, cfg); err != nil {
		return nil, err
	}
	if _, err := cfg.TLSClientConfig.tlsConfig(); err != nil {
		var ce *ConfigError
		if errors.As(err, &ce) {
			at := clusterAt
			if strings.HasPrefix(ce.Field, "client-") {
				at = userAt
			}
			return nil, k.fail(at+"."+ce.Field, "%s", ce.Message)
		}
		return nil, err
	}
	return cfg, nil
}

// clusterConfig fills in the server and how to trust it.
func (k *Kubeconfig) clusterConfig(at string, c Cluster, cfg *Config) error {
	if c.Server == "" {
		return k.fail(at+".server", "required")
	}
	if c.ProxyURL != "" {
		return k.fail(at+".proxy-url", "proxies are not supported")
	}
	cfg.Host = c.Server
	if _, err := cfg.baseURL(); err != nil {
		return k.fail(at+".server", "%q: the scheme must be http or https", c.Server)
	}
	t := &cfg.TLSClientConfig
	t.Insecure, t.ServerName = c.InsecureSkipTLSVerify, c.TLSServerName
	var err error
	if t.CAData, err = k.decodeData(at+".certificate-authority-data", c.CertificateAuthorityData); err != nil {
		return err
	}
	t.CAFile = k.resolve(c.CertificateAuthority)
	return k.checkFile(at+".certificate-authority", t.CAFile)
}

// userConfig fills in the credentials.
func (k *Kubeconfig) userConfig(at string, u AuthInfo, cfg *Config) error {
	switch {
	case u.Exec != nil:
		return k.fail(at+".exec", "credential plugins are not supported: use a token or a client certificate")
	case u.AuthProvider != nil:
		return k.fail(at+".auth-provider", "auth providers are not supported: use a token or a client certificate")
	case u.Username != "":
		return k.fail(at+".username", "basic authentication is not supported: use a token or a client certificate")
	case u.As != "":
		return k.fail(at+".as", "impersonation is not supported")
	}
	cfg.BearerToken = u.Token
	cfg.BearerTokenFile = k.resolve(u.TokenFile)
	if err := k.checkFile(at+".tokenFile", cfg.BearerTokenFile); err != nil {
		return err
	}
	t := &cfg.TLSClientConfig
	var err error
	if t.CertData, err = k.decodeData(at+".client-certificate-data", u.ClientCertificateData); err != nil {
		return err
	}
	if t.KeyData, err = k.decodeData(at+".client-key-data", u.ClientKeyData); err != nil {
		return err
	}
	t.CertFile, t.KeyFile = k.resolve(u.ClientCertificate), k.resolve(u.ClientKey)
	if err := k.checkFile(at+".client-certificate", t.CertFile); err != nil {
		return err
	}
	return k.checkFile(at+".client-key", t.KeyFile)
}

// checkFile reports a named file that cannot be read.
func (k *Kubeconfig) checkFile(field, file string) error {
	if file == "" {
		return nil
	}
	if _, err := os.Stat(file); err != nil {
		return k.fail(field, "%v", err)
	}
	return nil
}
