package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// Tests of the schedulers' scripts (issue 30): scripts/slurm run with bash
// against versitygw as a job array's tasks would run it; a structural check
// of the Kubernetes Job (no cluster here); the AWS Batch job definition and
// submit.sh through the real AWS CLI against a loopback server.

// slurmTask runs scripts/slurm/robocensus-array.sh with bash as task k of a
// Slurm job array of n tasks (--array=0-<n-1>) would run it (sbatch reads
// its #SBATCH lines; bash takes them for comments), with the environment
// given on top of the test's, and returns its exit status and output.
func slurmTask(t *testing.T, k, n int, env []string, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command("bash", append([]string{"../../scripts/slurm/robocensus-array.sh"}, args...)...)
	cmd.Env = append(os.Environ(), "ROBOCENSUS="+binary(t), "SLURM_ARRAY_JOB_ID=4242",
		fmt.Sprintf("SLURM_ARRAY_TASK_ID=%d", k), fmt.Sprintf("SLURM_ARRAY_TASK_COUNT=%d", n),
		"SLURM_ARRAY_TASK_MIN=0", fmt.Sprintf("SLURM_ARRAY_TASK_MAX=%d", n-1), "SLURM_ARRAY_TASK_STEP=1")
	cmd.Env = append(cmd.Env, env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			t.Fatalf("robocensus-array.sh: %v", err)
		}
	}
	return cmd.ProcessState.ExitCode(), string(out)
}

// The Slurm array script, run as each of a 3-task array's tasks in turn
// with only Slurm's array variables telling them apart, writes into
// s3:// a dataset equal row for row to a single local ingest of the same
// inputs, published by the last task alone; run without inputs it is a
// usage error.
func TestSlurmArrayScript(t *testing.T) {
	srv := startS3(t)
	inputs := makeInputs(t, t.TempDir(), 6, 200)
	local := t.TempDir()
	runBinary(t, append([]string{"ingest", "-o", local, "--crawl", "slurm-test"}, inputs...)...)
	env := []string{"DATA=s3://" + s3Bucket + "/slurm", "S3_ENDPOINT=" + srv.URL, "CRAWL=slurm-test"}

	if code, out := slurmTask(t, 0, 3, env); code != exitUsage || !strings.Contains(out, "usage: sbatch") {
		t.Errorf("no inputs: exit %d, want %d and the usage:\n%s", code, exitUsage, out)
	}
	for k := range 3 {
		code, out := slurmTask(t, k, 3, env, inputs...)
		if code != 0 || !strings.Contains(out, fmt.Sprintf("shard=%d/3", k)) {
			t.Fatalf("task %d: exit %d, want 0 and shard %d/3 from SLURM_ARRAY_TASK_ID:\n%s", k, code, k, out)
		}
		if published := strings.Contains(out, "published s3://"); published != (k == 2) {
			t.Errorf("task %d of 3 published: %v, want %v:\n%s", k, published, k == 2, out)
		}
	}
	dir := filepath.Join(srv.Dir, s3Bucket, "slurm")
	if got, want := fingerprint(t, dir), fingerprint(t, local); got != want {
		t.Errorf("the Slurm array's dataset differs from a single local ingest:\n got %s\nwant %s", got, want)
	}
}

// The Kubernetes Indexed Job writes to s3:// with no shared volume, takes
// its shard count from completions, and fails an index without retries on
// ingest's exit 2 and 5, retrying others a few times per index. A
// structural check of the file's text (no YAML library, no cluster).
func TestK8sJobManifest(t *testing.T) {
	data, err := os.ReadFile("../../scripts/k8s/robocensus-job.yaml")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	field := func(pattern string) string {
		m := regexp.MustCompile(pattern).FindStringSubmatch(text)
		if m == nil {
			t.Errorf("robocensus-job.yaml has no match of %q", pattern)
			return ""
		}
		return m[1]
	}
	completions := field(`(?m)^  completions: (\d+)$`)
	if shards := field(`- name: ROBOCENSUS_SHARDS.*\n\s+value: "(\d+)"`); shards != completions {
		t.Errorf("ROBOCENSUS_SHARDS is %q, completions %q: they must be equal", shards, completions)
	}
	if parallelism := field(`(?m)^  parallelism: (\d+)$`); parallelism != completions {
		t.Errorf("parallelism %q, completions %q", parallelism, completions)
	}
	field(`(?m)^  completionMode: (Indexed)\b`)
	field(`(?m)^  backoffLimitPerIndex: ([1-9]\d*)$`)
	field(`(?m)^  maxFailedIndexes: (\d+)$`)
	field(`(?m)^      restartPolicy: (Never)$`)
	rule := field(`- action: FailIndex\n\s+onExitCodes:\n\s+containerName: (\w+)\n\s+operator: In\n\s+values: \[2, 5\]`)
	if container := field(`containers:\n\s+- name: (\w+)`); rule != container {
		t.Errorf("the FailIndex rule names container %q, the Job runs %q", rule, container)
	}
	for _, gone := range []string{"ReadWriteMany", "persistentVolumeClaim"} {
		if strings.Contains(text, gone) {
			t.Errorf("robocensus-job.yaml still has %s: the pods share no volume", gone)
		}
	}
	field(`(?m)^\s+- name: (AWS_SECRET_ACCESS_KEY)\n\s+valueFrom: \{secretKeyRef:`)
}

// The AWS Batch job definition is JSON that register-job-definition reads,
// runs the nightly job over an s3:// DATA, and retries any failure but
// exit 2 and 5; the AWS CLI accepts it and submit.sh (awsBatchRequests).
func TestAWSBatchJobDefinition(t *testing.T) {
	data, err := os.ReadFile("../../scripts/aws-batch/job-definition.json")
	if err != nil {
		t.Fatal(err)
	}
	var def struct {
		Type                string
		ContainerProperties struct {
			Command     []string
			Environment []struct{ Name, Value string }
		}
		RetryStrategy struct {
			Attempts       int
			EvaluateOnExit []struct{ OnExitCode, Action string }
		}
	}
	dec := json.NewDecoder(strings.NewReader(string(data)))
	if err := dec.Decode(&def); err != nil {
		t.Fatalf("job-definition.json: %v", err)
	}
	if def.Type != "container" || len(def.ContainerProperties.Command) == 0 {
		t.Errorf("type %q, command %q", def.Type, def.ContainerProperties.Command)
	}
	var dataURL string
	for _, e := range def.ContainerProperties.Environment {
		if e.Name == "DATA" {
			dataURL = e.Value
		}
	}
	if !strings.HasPrefix(dataURL, "s3://") {
		t.Errorf("DATA is %q, want s3://...", dataURL)
	}
	exits := map[string]string{}
	for _, e := range def.RetryStrategy.EvaluateOnExit {
		exits[e.OnExitCode] = strings.ToUpper(e.Action)
	}
	if exits["2"] != "EXIT" || exits["5"] != "EXIT" || exits["1"] == "EXIT" || def.RetryStrategy.Attempts < 2 {
		t.Errorf("retryStrategy: attempts %d, actions by exit code %v; want retries, and EXIT on 2 and 5 only", def.RetryStrategy.Attempts, exits)
	}
	t.Run("aws CLI", func(t *testing.T) { awsBatchRequests(t) })
}

// awsBatchRequests registers the job definition and runs submit.sh with
// the real AWS CLI against a loopback server that records the Batch API
// requests: the CLI validates both against the API's model before it
// sends them, and submit-job asks for an array of SHARDS children with
// ROBOCENSUS_SHARDS=SHARDS in their environment.
func awsBatchRequests(t *testing.T) {
	if _, err := exec.LookPath("aws"); err != nil {
		t.Skipf("the AWS CLI is not installed: %v", err)
	}
	var mu sync.Mutex
	requests := map[string]string{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		requests[r.URL.Path] = string(body)
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"jobArn": "arn:aws:batch:us-east-1:1:job/1", "jobName": "n", "jobId": "1", "jobDefinitionName": "n", "jobDefinitionArn": "arn:aws:batch:us-east-1:1:job-definition/n:1", "revision": 1}`)
	}))
	defer srv.Close()
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "AWS_ACCESS_KEY_ID=test", "AWS_SECRET_ACCESS_KEY=test",
		"AWS_DEFAULT_REGION=us-east-1", "AWS_CONFIG_FILE=/dev/null", "AWS_SHARED_CREDENTIALS_FILE=/dev/null",
		"AWS_MAX_ATTEMPTS=1", "AWS_ENDPOINT_URL=" + srv.URL, "QUEUE=robocensus", "SHARDS=4", "CRAWL=CC-MAIN-2025-05"}
	for _, args := range [][]string{
		{"aws", "batch", "register-job-definition", "--cli-input-json", "file://../../scripts/aws-batch/job-definition.json"},
		{"bash", "../../scripts/aws-batch/submit.sh"},
	} {
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Env = env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	var submit struct {
		JobQueue           string
		ArrayProperties    struct{ Size int }
		ContainerOverrides struct {
			Environment []struct{ Name, Value string }
		}
	}
	if err := json.Unmarshal([]byte(requests["/v1/submitjob"]), &submit); err != nil {
		t.Fatalf("submit-job request %q: %v", requests["/v1/submitjob"], err)
	}
	shards := ""
	for _, e := range submit.ContainerOverrides.Environment {
		if e.Name == "ROBOCENSUS_SHARDS" {
			shards = e.Value
		}
	}
	if submit.JobQueue != "robocensus" || submit.ArrayProperties.Size != 4 || shards != "4" {
		t.Errorf("submit-job sent %s; want queue robocensus, an array of 4 and ROBOCENSUS_SHARDS=4", requests["/v1/submitjob"])
	}
	if !strings.Contains(requests["/v1/registerjobdefinition"], `"evaluateOnExit"`) {
		t.Errorf("register-job-definition sent %q", requests["/v1/registerjobdefinition"])
	}
}
