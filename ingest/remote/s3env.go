package remote

import (
	"context"
	"os"
	"strings"

	awsconfig "github.com/aws/aws-sdk-go-v2/config"
)

// S3ConfigFromEnvironment returns the S3Config of the standard AWS
// settings, as the AWS command line and SDKs read them: the region and
// credentials of the environment (AWS_REGION, AWS_ACCESS_KEY_ID,
// AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN, AWS_PROFILE, ...), of the
// shared config and credentials files (~/.aws/config, ~/.aws/credentials,
// or AWS_CONFIG_FILE and AWS_SHARED_CREDENTIALS_FILE: keys, roles to
// assume, SSO, credential_process), of a web identity token (Kubernetes'
// IRSA), of a container's or an EC2 instance's role; and the endpoint of
// AWS_ENDPOINT_URL_S3, else AWS_ENDPOINT_URL or the profile's endpoint_url
// (none when AWS_IGNORE_CONFIGURED_ENDPOINT_URLS is true). endpoint, when
// not "", is used instead; urlStyle is the S3Config's. No credentials
// found at the first request means anonymous requests.
//
// It is the one function of this package that reads the environment;
// nothing is fetched until the first request.
func S3ConfigFromEnvironment(ctx context.Context, endpoint, urlStyle string) (S3Config, error) {
	aws, err := awsconfig.LoadDefaultConfig(ctx)
	if err != nil {
		return S3Config{}, errorf("reading the AWS settings: %w", err)
	}
	c := S3Config{Endpoint: endpoint, Region: aws.Region, URLStyle: urlStyle, Credentials: aws.Credentials}
	if c.Endpoint == "" && !strings.EqualFold(os.Getenv("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS"), "true") {
		c.Endpoint = os.Getenv("AWS_ENDPOINT_URL_S3")
	}
	if c.Endpoint == "" && aws.BaseEndpoint != nil {
		c.Endpoint = *aws.BaseEndpoint
	}
	return c, checkS3Config(c)
}
