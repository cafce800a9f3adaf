package remote

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// S3ConfigFromEnvironment takes the endpoint where the AWS SDKs and CLI
// do, in their order: --s3-endpoint, AWS_ENDPOINT_URL_S3,
// AWS_ENDPOINT_URL, the s3 endpoint_url of the profile's services section
// (which the shared config's s3 client section names), the profile's
// endpoint_url; none at all with AWS_IGNORE_CONFIGURED_ENDPOINT_URLS=true.
func TestS3ConfigEndpoint(t *testing.T) {
	dir := t.TempDir()
	config := filepath.Join(dir, "config")
	err := os.WriteFile(config, []byte(`[default]
region = eu-west-1
endpoint_url = http://profile.example:9000
services = local

[services local]
s3 =
  endpoint_url = http://services.example:9000
`), 0o644)
	if err != nil {
		t.Fatal(err)
	}
	vars := []string{"AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_S3", "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS", "AWS_PROFILE", "AWS_DEFAULT_PROFILE", "AWS_REGION", "AWS_DEFAULT_REGION"}
	cases := []struct {
		name, flag string
		env        map[string]string
		want       string
	}{
		{"services section", "", nil, "http://services.example:9000"},
		{"AWS_ENDPOINT_URL_S3 first", "", map[string]string{"AWS_ENDPOINT_URL_S3": "http://env-s3.example:9000"}, "http://env-s3.example:9000"},
		{"AWS_ENDPOINT_URL before the profile", "", map[string]string{"AWS_ENDPOINT_URL": "http://env.example:9000"}, "http://env.example:9000"},
		{"the flag first", "http://flag.example:9000", map[string]string{"AWS_ENDPOINT_URL_S3": "http://env-s3.example:9000"}, "http://flag.example:9000"},
		{"ignored", "", map[string]string{"AWS_IGNORE_CONFIGURED_ENDPOINT_URLS": "true"}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("AWS_CONFIG_FILE", config)
			t.Setenv("AWS_SHARED_CREDENTIALS_FILE", filepath.Join(dir, "none"))
			for _, v := range vars {
				t.Setenv(v, "")
				os.Unsetenv(v) // unset, not empty: the SDK tells them apart
			}
			for k, v := range c.env {
				t.Setenv(k, v)
			}
			got, err := S3ConfigFromEnvironment(context.Background(), c.flag, "")
			if err != nil || got.Endpoint != c.want || got.Region != "eu-west-1" {
				t.Errorf("endpoint %q, region %q, %v; want %q, eu-west-1", got.Endpoint, got.Region, err, c.want)
			}
		})
	}
}
