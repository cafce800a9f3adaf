package remote

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

// S3ConfigFromEnvironment returns the S3Config of the standard AWS
// settings, as the AWS command line and SDKs read them: the region and
// credentials of the environment (AWS_REGION, AWS_ACCESS_KEY_ID,
// AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN, AWS_PROFILE, ...), of the
// shared config and credentials files (~/.aws/config, ~/.aws/credentials,
// or AWS_CONFIG_FILE and AWS_SHARED_CREDENTIALS_FILE: keys, roles to
// assume, SSO, credential_process), of a web identity token (Kubernetes'
// IRSA), of a container's or an EC2 instance's role; and the endpoint the
// SDK's S3 client resolves from them: AWS_ENDPOINT_URL_S3,
// AWS_ENDPOINT_URL, the s3 endpoint_url of the profile's services section,
// or the profile's endpoint_url (none when
// AWS_IGNORE_CONFIGURED_ENDPOINT_URLS is true). endpoint, when not "", is used instead; urlStyle is the
// S3Config's. No credentials found at the first request means anonymous
// requests.
//
// It is the one function of this package that reads the environment;
// nothing is fetched until the first request.
func S3ConfigFromEnvironment(ctx context.Context, endpoint, urlStyle string) (S3Config, error) {
	cfg, err := awsconfig.LoadDefaultConfig(ctx)
	if err != nil {
		return S3Config{}, errorf("reading the AWS settings: %w", err)
	}
	c := S3Config{Endpoint: endpoint, Region: cfg.Region, URLStyle: urlStyle, Credentials: cfg.Credentials}
	if c.Endpoint == "" {
		// The client's options hold the endpoint as every SDK resolves
		// it; making a client sends nothing.
		c.Endpoint = aws.ToString(s3.NewFromConfig(cfg).Options().BaseEndpoint)
	}
	return c, checkS3Config(c)
}
