package dataset

import (
	"fmt"
	"strconv"
)

// Shards of array jobs. A scheduler that runs one task per shard gives
// each its index (and most, the count) in environment variables; a task
// started with only those set is the shard they say.

// ShardsEnv is the environment variable that gives the shard count where
// the scheduler gives only the index (a Kubernetes Indexed Job's manifest
// sets it to its completions; AWS Batch to the array size).
const ShardsEnv = "ROBOCENSUS_SHARDS"

// An arrayScheduler names the variables of one scheduler's array tasks.
type arrayScheduler struct {
	name         string
	index, count string // count "": from ShardsEnv or the caller
}

// arraySchedulers are the schedulers ShardFromEnv knows, in the order it
// looks for them.
var arraySchedulers = []arrayScheduler{
	{"Kubernetes Indexed Job", "JOB_COMPLETION_INDEX", ""},
	{"AWS Batch array job", "AWS_BATCH_JOB_ARRAY_INDEX", "AWS_BATCH_JOB_ARRAY_SIZE"},
	{"Slurm job array", "SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT"},
	{"Cloud Run job", "CLOUD_RUN_TASK_INDEX", "CLOUD_RUN_TASK_COUNT"},
}

// InArrayJob reports whether getenv gives the index of an array task that
// ShardFromEnv knows.
func InArrayJob(getenv func(string) string) bool {
	for _, s := range arraySchedulers {
		if getenv(s.index) != "" {
			return true
		}
	}
	return false
}

// ShardFromEnv returns the shard of an array task from the variables
// getenv gives, and says where it came from: the first of
// JOB_COMPLETION_INDEX (Kubernetes), AWS_BATCH_JOB_ARRAY_INDEX (AWS Batch),
// SLURM_ARRAY_TASK_ID (Slurm) and CLOUD_RUN_TASK_INDEX (Cloud Run) that is
// set is the index; the count is the scheduler's own variable
// (AWS_BATCH_JOB_ARRAY_SIZE, SLURM_ARRAY_TASK_COUNT, CLOUD_RUN_TASK_COUNT)
// when set, else count when above 0, else ShardsEnv. A Slurm task's index
// is counted from SLURM_ARRAY_TASK_MIN by SLURM_ARRAY_TASK_STEP, so that
// --array=1-8 gives shards 0/8 to 7/8. The shard is the same at every
// rerun and reschedule of the task: the index is the task's.
func ShardFromEnv(getenv func(string) string, count int) (Shard, string, error) {
	for _, s := range arraySchedulers {
		raw := getenv(s.index)
		if raw == "" {
			continue
		}
		index, err := strconv.Atoi(raw)
		if err != nil || index < 0 {
			return Shard{}, "", fmt.Errorf("dataset: %s=%q is not a task index", s.index, raw)
		}
		if s.index == "SLURM_ARRAY_TASK_ID" {
			if index, err = slurmIndex(getenv, index); err != nil {
				return Shard{}, "", err
			}
		}
		n, from, err := shardCount(getenv, s.count, count)
		if err != nil {
			return Shard{}, "", fmt.Errorf("dataset: %s (%s=%d): %w", s.name, s.index, index, err)
		}
		if index >= n {
			return Shard{}, "", fmt.Errorf("dataset: %s: task index %d (%s) is not below the count %d (%s)", s.name, index, s.index, n, from)
		}
		return Shard{K: index, N: n}, fmt.Sprintf("%s: %s, count from %s", s.name, s.index, from), nil
	}
	return Shard{}, "", fmt.Errorf("dataset: --shard auto: none of JOB_COMPLETION_INDEX, AWS_BATCH_JOB_ARRAY_INDEX, SLURM_ARRAY_TASK_ID, CLOUD_RUN_TASK_INDEX is set")
}

// slurmIndex returns the shard index of the Slurm task id: counted from
// SLURM_ARRAY_TASK_MIN by SLURM_ARRAY_TASK_STEP when they are set.
func slurmIndex(getenv func(string) string, id int) (int, error) {
	lo, step := 0, 1
	if v := getenv("SLURM_ARRAY_TASK_MIN"); v != "" {
		var err error
		if lo, err = strconv.Atoi(v); err != nil {
			return 0, fmt.Errorf("dataset: SLURM_ARRAY_TASK_MIN=%q is not a number", v)
		}
	}
	if v := getenv("SLURM_ARRAY_TASK_STEP"); v != "" {
		var err error
		if step, err = strconv.Atoi(v); err != nil || step < 1 {
			return 0, fmt.Errorf("dataset: SLURM_ARRAY_TASK_STEP=%q is not a step", v)
		}
	}
	if id < lo || (id-lo)%step != 0 {
		return 0, fmt.Errorf("dataset: SLURM_ARRAY_TASK_ID=%d is not in the array from %d by %d (only evenly spaced arrays, --array=A-B[:S], can be shards)", id, lo, step)
	}
	return (id - lo) / step, nil
}

// shardCount returns the shard count: the scheduler's variable v when set,
// else count when above 0, else ShardsEnv; and which it was.
func shardCount(getenv func(string) string, v string, count int) (int, string, error) {
	from := ""
	raw := ""
	switch {
	case v != "" && getenv(v) != "":
		from, raw = v, getenv(v)
	case count > 0:
		return count, "--shards", nil
	case getenv(ShardsEnv) != "":
		from, raw = ShardsEnv, getenv(ShardsEnv)
	default:
		return 0, "", fmt.Errorf("no shard count: give --shards N or set %s", ShardsEnv)
	}
	n, err := strconv.Atoi(raw)
	if err != nil || n < 1 {
		return 0, "", fmt.Errorf("%s=%q is not a shard count", from, raw)
	}
	return n, from, nil
}
