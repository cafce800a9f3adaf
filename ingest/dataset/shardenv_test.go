package dataset

import (
	"strings"
	"testing"
)

// Each scheduler's variables give the shard of its task, and what cannot
// be one is an error that names the variable.
func TestShardFromEnv(t *testing.T) {
	cases := []struct {
		env   map[string]string
		count int
		want  string // the shard, or the start of the error's text after "dataset: "
	}{
		{map[string]string{"JOB_COMPLETION_INDEX": "2"}, 4, "2/4"},
		{map[string]string{"JOB_COMPLETION_INDEX": "2", ShardsEnv: "8"}, 0, "2/8"},
		{map[string]string{"JOB_COMPLETION_INDEX": "0"}, 0, "Kubernetes Indexed Job (JOB_COMPLETION_INDEX=0): no shard count"},
		{map[string]string{"JOB_COMPLETION_INDEX": "4", ShardsEnv: "4"}, 0, "Kubernetes Indexed Job: task index 4"},
		{map[string]string{"JOB_COMPLETION_INDEX": "x"}, 4, `JOB_COMPLETION_INDEX="x" is not a task index`},
		{map[string]string{"AWS_BATCH_JOB_ARRAY_INDEX": "3", "AWS_BATCH_JOB_ARRAY_SIZE": "5"}, 0, "3/5"},
		{map[string]string{"AWS_BATCH_JOB_ARRAY_INDEX": "3", ShardsEnv: "4"}, 0, "3/4"},
		{map[string]string{"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "4"}, 0, "3/4"},
		{map[string]string{"SLURM_ARRAY_TASK_ID": "8", "SLURM_ARRAY_TASK_COUNT": "8", "SLURM_ARRAY_TASK_MIN": "1"}, 0, "7/8"},
		{map[string]string{"SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_COUNT": "3", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_STEP": "2"}, 0, "2/3"},
		{map[string]string{"SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_COUNT": "3", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_STEP": "2"}, 0, "SLURM_ARRAY_TASK_ID=4 is not in the array"},
		{map[string]string{"CLOUD_RUN_TASK_INDEX": "0", "CLOUD_RUN_TASK_COUNT": "1"}, 0, "all"},
		{map[string]string{"CLOUD_RUN_TASK_INDEX": "1", "CLOUD_RUN_TASK_COUNT": "0"}, 0, `Cloud Run job (CLOUD_RUN_TASK_INDEX=1): CLOUD_RUN_TASK_COUNT="0" is not a shard count`},
		{map[string]string{}, 4, "--shard auto: none of"},
	}
	for _, c := range cases {
		getenv := func(k string) string { return c.env[k] }
		s, from, err := ShardFromEnv(getenv, c.count)
		got := s.String()
		if err != nil {
			got = strings.TrimPrefix(err.Error(), "dataset: ")
		} else if from == "" {
			t.Errorf("%v: no source given", c.env)
		}
		if !strings.HasPrefix(got, c.want) {
			t.Errorf("ShardFromEnv(%v, %d) = %q, want %q", c.env, c.count, got, c.want)
		}
		if InArrayJob(getenv) != (len(c.env) > 0) {
			t.Errorf("InArrayJob(%v) = %v", c.env, InArrayJob(getenv))
		}
	}
}
