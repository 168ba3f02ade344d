package chapters

import (
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/httpapi"
	"github.com/kitchensync/kitchensync/examples/cakeshop/bakery"
	"github.com/kitchensync/kitchensync/kitchen"
)

// TestStoriesYAMLWithKubectl applies the stories' YAML with the real
// kubectl, as a reader would, and checks that kubectl says what the
// chapters on the stories' YAML say it says.
func TestStoriesYAMLWithKubectl(t *testing.T) {
	kubectl, err := exec.LookPath("kubectl")
	if err != nil {
		t.Skip("kubectl is not installed")
	}
	kitchenURL := httptest.NewServer(httpapi.NewHandler(apiserver.NewServer(kitchen.NewScheme(), apiserver.Options{})))
	defer kitchenURL.Close()
	shopURL := httptest.NewServer(httpapi.NewHandler(bakery.NewServer()))
	defer shopURL.Close()
	wedding := storyCakeManifests[2].yaml
	for _, tc := range []struct {
		name, server, manifest string
		flags                  []string
		ok                     bool
		want                   string // in stdout if ok, else in stderr
	}{
		{"the story's dish", kitchenURL.URL, storyDish, nil, false,
			`Dish in version "v1" cannot be handled as a Dish: spec.ingredients: Invalid value: "array": must be of type object; write it as name: value pairs (a map)`},
		{"the dish with a map", kitchenURL.URL, strings.Replace(storyDish, "    - ", "    ", 2), nil, true,
			"dish.menu.example.com/beef-wellington created"},
		{"the order form", shopURL.URL, storyCakeManifests[0].yaml, nil, false,
			"error validating data: [apiVersion not set, kind not set]"},
		{"the autoscaler", shopURL.URL, storyCakeManifests[1].yaml, []string{"--validate=false"}, false,
			`no matches for kind "HorizontalPodAutoscaler" in version "autoscaling/v2"`},
		{"the wedding cake", shopURL.URL, wedding, []string{"--validate=false"}, false,
			`no matches for kind "Cake" in version "bakery/v1"`},
		{"the wedding cake validated", shopURL.URL, wedding, nil, false,
			"error validating data: the server could not find the requested resource"},
		{"the alert", shopURL.URL, storyCakeManifests[3].yaml, nil, false,
			"error validating data: [apiVersion not set, kind not set]"},
		{"the wedding cake in its group", shopURL.URL, strings.Replace(wedding, "bakery/v1", "bakery.example.com/v1", 1), nil, false,
			"The Cake \"wedding-cake\" is invalid: \n* spec.flavor: Required value: what kind of cake?\n* spec.size: Invalid value: 0: must be between 4 and 16 inches\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			config := "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster: {server: " + tc.server + "}\n" +
				"users:\n- name: u\n  user: {}\ncontexts:\n- name: c\n  context: {cluster: c, user: u, namespace: shop}\ncurrent-context: c\n"
			write := func(name, content string) string {
				path := filepath.Join(dir, name)
				if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
					t.Fatal(err)
				}
				return path
			}
			args := append([]string{"--kubeconfig", write("kubeconfig", config), "--cache-dir", filepath.Join(dir, "cache"),
				"apply", "-f", write("manifest.yaml", tc.manifest)}, tc.flags...)
			cmd := exec.Command(kubectl, args...)
			cmd.Env = []string{"HOME=" + dir, "PATH=" + os.Getenv("PATH")}
			var out, errOut strings.Builder
			cmd.Stdout, cmd.Stderr = &out, &errOut
			err := cmd.Run()
			got := errOut.String()
			if tc.ok {
				got = out.String()
			}
			if (err == nil) != tc.ok || !strings.Contains(got, tc.want) {
				t.Errorf("kubectl apply: err %v, stdout %q, stderr %q; want ok=%v and %q", err, out.String(), errOut.String(), tc.ok, tc.want)
			}
		})
	}
}
