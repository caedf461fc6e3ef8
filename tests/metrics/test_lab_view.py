#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 The idlegpu authors
"""The lab view on the real engines (ctest label metrics).

Debian's prometheus and prometheus-node-exporter, started under a temporary folder on free loopback ports, watch three
workstations, each an idlegpu --headless with its own config, fake device nodes (plain files under its device_root),
ledger (XDG_STATE_HOME) and [metrics] textfile, read by its own node_exporter (textfile collector only):
  ws1  Slurm mode, a miner on GPU 0, GPU 1 lent to the lab;
  ws2  Slurm mode, GPUs 0-2 lent; its owner opens GPU 0 and keeps it;
  ws3  no Slurm: a miner on GPU 1 and a workload that always fails on GPU 0.
Lending goes through fake salloc/scancel/squeue/sinfo/scontrol first on PATH, which keep the jobs as files in one
folder and print what Slurm 22.05 prints (tests/data/slurm); no lab job runs. The owners' programs are test_holdopen named python3,
holding nvidiactl, nvidia-uvm and the GPU's node, as a CUDA process does.

Then, through Prometheus's HTTP API, the lab admin's questions get the values the scenario made: GPUs lent now per
node, GPU-hours lent today (against the textfiles' counters), preemptions in the last hour (the opens made), p99 from
the owner's open to the stop (finite, in the bucket the textfiles' histogram puts it). The shipped rules pass
`promtool check rules` and `promtool test rules` (tests/metrics/idlegpu.rules.test.yml), load without errors, and
IdlegpuWorkloadFailing fires for ws3's failing workload; after SIGTERM of ws1's idlegpu, IdlegpuDown is pending for
the GPU it lent; after SIGKILL of ws2's, its lent GPUs stay lent while the file's age grows (IdlegpuGuardStale's
expression, whose 120 s this test does not wait for). Every query of the shipped Grafana dashboard runs against this
Prometheus with the variables substituted. Everything started is stopped on exit.

Usage: test_lab_view.py IDLEGPU HOLDOPEN. Exits 77 (skip) when a package is missing.
"""
import json
import math
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(os.path.dirname(HERE))
RULES = os.path.join(SOURCE, "resources", "prometheus", "idlegpu.rules.yml")
RULE_TESTS = os.path.join(HERE, "idlegpu.rules.test.yml")
DASHBOARD = os.path.join(SOURCE, "resources", "grafana", "idlegpu-lab.json")
LENDING = 'workload=~"slurm-gpu[0-9]+"'
ALERTS = ["IdlegpuDown", "IdlegpuGuardStale", "IdlegpuGiveBackSlow", "IdlegpuWorkloadFailing"]

T0 = time.monotonic()
failures = 0


def log(message):
    print(f"[{(time.monotonic() - T0) * 1000:6.0f} ms] {message}", flush=True)


def check(ok, message):
    global failures
    log(("PASS " if ok else "FAIL ") + message)
    if not ok:
        failures += 1
    return ok


def wait_for(seconds, predicate, step=0.1):
    deadline = time.monotonic() + seconds
    while True:
        value = predicate()
        if value or time.monotonic() >= deadline:
            return value
        time.sleep(step)


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def http_get(url, timeout=5):
    with urllib.request.urlopen(url, timeout=timeout) as response:
        return response.read().decode()


def answers(url):
    try:
        http_get(url, timeout=1)
        return True
    except (OSError, urllib.error.URLError):
        return False


# The fake Slurm clients: one job per file "id name partition node gres" in $FAKE_SLURM_DIR, under a lock.
FAKE_SALLOC = r"""#!/bin/bash
d=${FAKE_SLURM_DIR:?}
part= node= gres= name=
while [ $# -gt 0 ]; do
    case $1 in -p) part=$2; shift;; -w) node=$2; shift;; -J) name=$2; shift;; --gres=*) gres=${1#--gres=};; esac
    shift
done
exec 9>"$d/lock"; flock 9
id=$(( $(cat "$d/next" 2>/dev/null || echo 100) + 1 )); echo $id > "$d/next"
echo "$id $name $part $node $gres" > "$d/job.$id"
echo "salloc: Granted job allocation $id" >&2
"""
FAKE_SCANCEL = r"""#!/bin/bash
# As Slurm's: the jobs given by id that pass every filter; with no id, every job that passes them.
d=${FAKE_SLURM_DIR:?}
name= part= node= ids=()
while [ $# -gt 0 ]; do
    case $1 in
        -n) name=$2; shift;; -p) part=$2; shift;; -w) node=$2; shift;;
        --name=*) name=${1#*=};; --partition=*) part=${1#*=};; --nodelist=*) node=${1#*=};; --user=root) ;;
        -*) echo "scancel: the test's fake does not know $1" >&2; exit 1;;
        *) ids+=("$1");;
    esac
    shift
done
[ ${#ids[@]} -gt 0 ] || [ -n "$name$part$node" ] || exit 0
exec 9>"$d/lock"; flock 9
for f in "$d"/job.*; do
    [ -e "$f" ] || continue
    read -r id jname jpart jnode jgres < "$f"
    given=${#ids[@]}
    for i in "${ids[@]}"; do [ "$i" = "$id" ] && given=0; done
    [ "$given" = 0 ] || continue
    [ -z "$name" ] || [ "$jname" = "$name" ] || continue
    [ -z "$part" ] || [ "$jpart" = "$part" ] || continue
    [ -z "$node" ] || [ "$jnode" = "$node" ] || continue
    rm -f "$f"
done
exit 0
"""
# squeue --all --json: every job as Slurm 22.05's JSON has it (root's, running, its GRES on its node).
FAKE_SQUEUE = r"""#!/bin/bash
d=${FAKE_SLURM_DIR:?}
[ "$*" = "--all --json" ] || { echo "squeue: error: the test's fake knows only --all --json" >&2; exit 1; }
exec 9>"$d/lock"; flock 9
sep=
printf '{"jobs": ['
for f in "$d"/job.*; do
    [ -e "$f" ] || continue
    read -r id name part node gres < "$f"
    type=${gres#gpu:}; type=${type%:1}
    printf '%s{"job_id": %s, "name": "%s", "user_id": 0, "user_name": "root", "job_state": "RUNNING", "partition": "%s", "nodes": "%s", "required_nodes": "%s", "gres_detail": ["%s(IDX:%s)"]}' \
        "$sep" "$id" "$name" "$part" "$node" "$node" "$gres" "${type#gpu}"
    sep=", "
done
printf ']}\n'
"""
# sinfo --json --nodes=NODE: that node, idle.
FAKE_SINFO = r"""#!/bin/bash
[ "$1" = --json ] && [ "${2%%=*}" = --nodes ] || { echo "sinfo: error: the test's fake knows only --json --nodes=NODE" >&2; exit 1; }
printf '{"nodes": [{"name": "%s", "state": "idle", "state_flags": [], "reason": ""}]}\n' "${2#*=}"
"""
# scontrol update (a resume): nothing to do here.
FAKE_SCONTROL = r"""#!/bin/bash
[ "$1" = update ] || { echo "scontrol: error: the test's fake knows only update" >&2; exit 1; }
"""


class Lab:
    def __init__(self, idlegpu, holdopen):
        self.idlegpu = idlegpu
        self.holdopen = holdopen
        self.base = tempfile.mkdtemp(prefix="idlegpu-labview.")
        os.chmod(self.base, 0o755)
        self.processes = []  # (name, Popen), stopped in reverse order
        self.nodes = {}
        self.prometheus = None

    def path(self, *parts):
        return os.path.join(self.base, *parts)

    def spawn(self, name, argv, env=None, executable=None, log_name=None):
        out = open(self.path("log", (log_name or name) + ".log"), "ab")
        process = subprocess.Popen(argv, env=env, executable=executable, stdout=out, stderr=subprocess.STDOUT,
                                   stdin=subprocess.DEVNULL, start_new_session=True)
        out.close()
        self.processes.append((name, process))
        return process

    def stop(self, process, sig=signal.SIGTERM, wait=10):
        if process.poll() is not None:
            return
        process.send_signal(sig)
        try:
            process.wait(wait)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()

    def stop_all(self):
        for name, process in reversed(self.processes):
            self.stop(process)
        self.processes = []

    # --- the fake Slurm ----------------------------------------------------------------------------------------
    def write_fake_slurm(self):
        os.makedirs(self.path("bin"))
        os.makedirs(self.path("slurm"))
        for name, text in (("salloc", FAKE_SALLOC), ("scancel", FAKE_SCANCEL), ("squeue", FAKE_SQUEUE),
                           ("sinfo", FAKE_SINFO), ("scontrol", FAKE_SCONTROL)):
            with open(self.path("bin", name), "w") as f:
                f.write(text)
            os.chmod(self.path("bin", name), 0o755)

    # --- a workstation ------------------------------------------------------------------------------------------
    def add_node(self, name, gpus, sections):
        root = self.path(name)
        for folder in ("dev", "textfile", "state", "run"):
            os.makedirs(os.path.join(root, folder))
            os.chmod(os.path.join(root, folder), 0o755)
        for device in [f"nvidia{i}" for i in range(gpus)] + ["nvidiactl", "nvidia-uvm"]:
            open(os.path.join(root, "dev", device), "w").close()
        config = os.path.join(root, "idlegpu.conf")
        with open(config, "w") as f:
            f.write(f"[defaults]\ndevice_root = {root}/dev\nstart_delay_seconds = 1\ninterval_seconds = 1\n\n"
                    f"[metrics]\ntextfile = {root}/textfile/idlegpu.prom\n\n{sections}")
        os.chmod(config, 0o600)
        self.nodes[name] = {"root": root, "config": config, "gpus": gpus}

    def start_node_exporter(self, name):
        node = self.nodes[name]
        for attempt in range(3):
            port = free_port()
            process = self.spawn(f"node_exporter-{name}", [
                "prometheus-node-exporter", "--collector.disable-defaults", "--collector.textfile",
                f"--collector.textfile.directory={node['root']}/textfile", f"--web.listen-address=127.0.0.1:{port}"])
            if wait_for(10, lambda: process.poll() is not None or answers(f"http://127.0.0.1:{port}/metrics")) \
                    and process.poll() is None:
                node["exporter_port"] = port
                return True
            self.stop(process)  # the port was taken in between: another one
        return False

    def start_idlegpu(self, name):
        node = self.nodes[name]
        env = dict(os.environ, PATH=self.path("bin") + ":" + os.environ.get("PATH", "/usr/bin:/bin"),
                   FAKE_SLURM_DIR=self.path("slurm"), XDG_STATE_HOME=node["root"] + "/state",
                   HOME=node["root"],  # the workloads' working folder: the user's may not exist (nobody's)
                   RUNTIME_DIRECTORY=node["root"] + "/run")
        node["idlegpu"] = self.spawn(f"idlegpu-{name}", [self.idlegpu, "--headless", "-c", node["config"]], env=env)

    def textfile(self, name):
        """The node's textfile as {'name{labels}': value}."""
        samples = {}
        try:
            with open(self.nodes[name]["root"] + "/textfile/idlegpu.prom") as f:
                for line in f:
                    if line.startswith("#") or not line.strip():
                        continue
                    key, value = line.rsplit(" ", 1)
                    samples[key] = float(value)
        except OSError:
            pass
        return samples

    def owner_opens(self, name, gpu):
        """The owner's CUDA job on the GPU: test_holdopen named python3 holding nvidiactl, nvidia-uvm and nvidiaN."""
        dev = self.nodes[name]["root"] + "/dev"
        return self.spawn(f"owner-{name}-gpu{gpu}", ["python3", f"{dev}/nvidiactl", f"{dev}/nvidia-uvm",
                                                     f"{dev}/nvidia{gpu}"], executable=self.holdopen,
                          log_name="owners")

    # --- Prometheus ----------------------------------------------------------------------------------------------
    def start_prometheus(self):
        targets = "\n".join(
            f"      - targets: ['127.0.0.1:{node['exporter_port']}']\n        labels: {{instance: {name}}}"
            for name, node in self.nodes.items())
        config = self.path("prometheus.yml")
        with open(config, "w") as f:
            f.write(f"global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n"
                    f"rule_files:\n  - {RULES}\n"
                    f"scrape_configs:\n  - job_name: node\n    static_configs:\n{targets}\n")
        for attempt in range(3):
            port = free_port()
            process = self.spawn("prometheus", [
                "prometheus", f"--config.file={config}", f"--storage.tsdb.path={self.path('tsdb')}",
                f"--web.listen-address=127.0.0.1:{port}"])
            if wait_for(20, lambda: process.poll() is not None or answers(f"http://127.0.0.1:{port}/-/ready")) \
                    and process.poll() is None:
                self.prometheus = f"http://127.0.0.1:{port}"
                return True
            self.stop(process)
        return False

    def api(self, path, **params):
        url = f"{self.prometheus}/api/v1/{path}"
        if params:
            url += "?" + urllib.parse.urlencode(params, doseq=True)
        try:
            return json.loads(http_get(url))
        except urllib.error.HTTPError as error:
            return json.loads(error.read().decode() or "{}") or {"status": "error", "error": str(error)}

    def query(self, expr):
        """The instant query's result as [(labels, value)]; None (and a FAIL) on an error."""
        answer = self.api("query", query=expr)
        if answer.get("status") != "success":
            check(False, f"query {expr}: {answer.get('error')}")
            return None
        result = answer["data"]["result"]
        if answer["data"]["resultType"] == "scalar":
            return [({}, float(result[1]))]
        return [(sample["metric"], float(sample["value"][1])) for sample in result]

    def by_instance(self, expr):
        return {labels.get("instance"): value for labels, value in (self.query(expr) or [])}


def histogram_bucket_of_p99(lab):
    """The textfiles' histograms summed over the nodes: the bucket (lower, upper] that holds the 99th percentile."""
    buckets = {}
    for name in lab.nodes:
        for key, value in lab.textfile(name).items():
            if key.startswith("idlegpu_preemption_latency_seconds_bucket{"):
                le = key.split('le="')[1].split('"')[0]
                bound = math.inf if le == "+Inf" else float(le)
                buckets[bound] = buckets.get(bound, 0) + value
    bounds = sorted(buckets)
    total = buckets.get(math.inf, 0)
    lower = 0.0
    for bound in bounds:
        if buckets[bound] >= 0.99 * total:
            return lower, bound, total
        lower = bound
    return None, None, total


def check_dashboard(lab):
    with open(DASHBOARD) as f:
        dashboard = json.load(f)
    check(isinstance(dashboard.get("schemaVersion"), int) and dashboard["schemaVersion"] >= 30
          and dashboard.get("title") and dashboard.get("uid"), "dashboard: title, uid, schemaVersion "
          f"{dashboard.get('schemaVersion')}")
    variables = {v.get("name"): v for v in dashboard.get("templating", {}).get("list", [])}
    check(variables.get("datasource", {}).get("type") == "datasource"
          and variables["datasource"].get("query") == "prometheus", "dashboard: a Prometheus datasource variable")
    instance = variables.get("instance", {})
    check(instance.get("type") == "query" and instance.get("datasource", {}).get("uid") == "${datasource}"
          and instance.get("includeAll") and instance.get("multi"), "dashboard: an instance variable, all or several")
    # The variable's query, label_values(idlegpu_up, instance), as Grafana asks it.
    answer = lab.api("label/instance/values", **{"match[]": "idlegpu_up"})
    check(sorted(answer.get("data", [])) == sorted(lab.nodes), f"dashboard: $instance lists {answer.get('data')}")

    panels = dashboard.get("panels", [])
    ids = [p.get("id") for p in panels]
    check(len(ids) == len(set(ids)) and all(isinstance(i, int) for i in ids), "dashboard: panel ids unique")
    cells = set()
    overlap = []
    has_energy = any("idlegpu_workload_energy_joules_total" in key for name in lab.nodes
                     for key in lab.textfile(name))
    queries = 0
    for panel in panels:
        grid = panel.get("gridPos", {})
        title = panel.get("title", "?")
        if not (all(isinstance(grid.get(k), int) for k in "hwxy") and grid["x"] + grid["w"] <= 24):
            check(False, f"dashboard: panel '{title}' has no valid gridPos: {grid}")
            continue
        for x in range(grid["x"], grid["x"] + grid["w"]):
            for y in range(grid["y"], grid["y"] + grid["h"]):
                if (x, y) in cells:
                    overlap.append(title)
                cells.add((x, y))
        if panel.get("type") == "row":
            continue
        targets = panel.get("targets", [])
        if not check(bool(panel.get("type")) and bool(targets) and all(t.get("expr") for t in targets)
                     and panel.get("datasource", {}).get("uid") == "${datasource}",
                     f"dashboard: panel '{title}' ({panel.get('type')}) has its type, datasource and queries"):
            continue
        for target in targets:
            # Grafana's substitutions: all workstations (the variable's allValue), the time range, a rate window.
            expr = (target["expr"].replace("$instance", instance.get("allValue", ".+"))
                    .replace("$__range", "1h").replace("$__rate_interval", "10s"))
            result = lab.query(expr)
            queries += 1
            if result is None:
                continue
            if not result and "energy" in expr and not has_energy:
                log(f"NOTE dashboard: '{title}' is empty: no GPU backend measured energy here (fake device nodes)")
                continue
            nodes = sorted({labels.get("instance", "?") for labels, _ in result})
            check(bool(result), f"dashboard: '{title}' {target['refId']}: {len(result)} series of {nodes}")
    check(not overlap, f"dashboard: no panels overlap {overlap}")
    log(f"dashboard: {len(panels)} panels, {queries} queries run")


def scenario(lab):
    # --- the rules, offline --------------------------------------------------------------------------------------
    out = subprocess.run(["promtool", "check", "rules", RULES], capture_output=True, text=True)
    check(out.returncode == 0 and "4 rules found" in out.stdout, f"promtool check rules: {out.stdout.strip()}")
    out = subprocess.run(["promtool", "test", "rules", RULE_TESTS], capture_output=True, text=True)
    check(out.returncode == 0, "promtool test rules: " + (out.stdout + out.stderr).strip().replace("\n", " | ")[:2000])

    # --- three workstations, their node_exporters, one Prometheus ------------------------------------------------
    lab.write_fake_slurm()
    lab.add_node("ws1", 2, "[process-miner]\ncmd = sleep 600\ngpus = 0\n\n[slurm]\nenabled = true\nnode = ws1\n")
    lab.add_node("ws2", 3, "[slurm]\nenabled = true\nnode = ws2\n")
    lab.add_node("ws3", 2, "[process-flaky]\ncmd = false\ngpus = 0\n\n[process-miner]\ncmd = sleep 600\ngpus = 1\n")
    for name in lab.nodes:
        if not check(lab.start_node_exporter(name), f"node_exporter of {name} answers"):
            return
    if not check(lab.start_prometheus(), f"Prometheus is ready at {lab.prometheus}"):
        return
    # Prometheus passes its targets on at most every 5 s: idlegpu starts once each is scraped, so that every counter's
    # first sample is the 0 of idlegpu's first file and increase() misses nothing.
    scraped = {name: 1 for name in lab.nodes}
    if not check(wait_for(15, lambda: lab.by_instance('up{job="node"}') == scraped, 0.25),
                 f"Prometheus scrapes the three node_exporters: {lab.by_instance('up')}"):
        return
    for name in lab.nodes:
        lab.start_idlegpu(name)

    def lent(name, gpu):
        return lab.textfile(name).get(f'idlegpu_gpu_lent{{gpu="{gpu}",device="nvidia{gpu}"}}') == 1

    def running(name, gpu, workload):
        return lab.textfile(name).get(
            f'idlegpu_workload_running{{gpu="{gpu}",device="nvidia{gpu}",workload="{workload}"}}') == 1

    def preemptions(name, gpu):
        return lab.textfile(name).get(f'idlegpu_preemptions_total{{gpu="{gpu}",device="nvidia{gpu}"}}', 0)

    settled = lambda: (running("ws1", 0, "process-miner") and lent("ws1", 1) and all(lent("ws2", g) for g in range(3))
                       and running("ws3", 1, "process-miner"))
    if not check(wait_for(20, settled), "ws1: miner on GPU 0, GPU 1 lent; ws2: GPUs 0-2 lent; ws3: miner on GPU 1"):
        return
    expected_lent = {"ws1": 1, "ws2": 3, "ws3": 0}
    check(wait_for(10, lambda: lab.by_instance("sum by (instance) (idlegpu_gpu_lent)") == expected_lent, 0.25),
          f"Prometheus sees the lent GPUs: {lab.by_instance('sum by (instance) (idlegpu_gpu_lent)')}")

    # --- the owners: five opens, each one preemption -------------------------------------------------------------
    opens = {"ws1": 0, "ws2": 0, "ws3": 0}

    def open_and_wait(pairs, keep=()):
        before = {pair: preemptions(*pair) for pair in pairs}
        owners = {pair: lab.owner_opens(*pair) for pair in pairs}
        for name, _ in pairs:
            opens[name] += 1
        ok = wait_for(10, lambda: all(preemptions(*pair) == before[pair] + 1 for pair in pairs))
        check(ok, "preempted by the owners' opens of " + ", ".join(f"{n} GPU {g}" for n, g in pairs))
        for pair, owner in owners.items():
            if pair not in keep:
                lab.stop(owner)

    open_and_wait([("ws1", 1), ("ws1", 0), ("ws2", 0), ("ws3", 1)], keep=[("ws2", 0)])
    check(wait_for(10, lambda: lent("ws1", 1) and running("ws1", 0, "process-miner")
                   and running("ws3", 1, "process-miner")), "the closed GPUs lent and running again")
    open_and_wait([("ws1", 1)])
    check(wait_for(10, lambda: lent("ws1", 1)), "ws1's GPU 1 lent again")
    check(not lent("ws2", 0) and lab.textfile("ws2").get('idlegpu_gpu_busy{gpu="0",device="nvidia0"}') == 1,
          "ws2's GPU 0 busy and held while its owner's job runs")

    flaky = 'idlegpu_workload_consecutive_failures{workload="process-flaky"}'
    check(wait_for(25, lambda: lab.textfile("ws3").get(flaky, 0) >= 3), f"ws3's flaky workload failed "
          f"{lab.textfile('ws3').get(flaky)} times in a row")
    time.sleep(2.5)  # the last files scraped

    # --- the lab admin's questions -------------------------------------------------------------------------------
    expected_lent = {"ws1": 1, "ws2": 2, "ws3": 0}
    lent_now = lab.by_instance("sum by (instance) (idlegpu_gpu_lent)")
    check(lent_now == expected_lent, f"GPUs lent now per node: {lent_now}")

    hours_expr = f"sum by (instance) (increase(idlegpu_workload_seconds_total{{{LENDING}}}[1d])) / 3600"
    hours = lab.by_instance(hours_expr)
    for name in lab.nodes:
        counter = sum(v for k, v in lab.textfile(name).items()
                      if k.startswith("idlegpu_workload_seconds_total{") and 'workload="slurm-gpu' in k)
        # The counter moves at each write (at least every second) and is scraped every second; increase() also
        # extrapolates to the query's time: a few seconds per GPU lent now.
        slack = 3.0 * max(1, expected_lent[name])
        got = hours.get(name, 0) * 3600
        check(abs(got - counter) <= slack and (counter > 0) == (name != "ws3"),
              f"GPU-hours lent today on {name}: {hours.get(name, 0):.5f} h ({got:.1f} s; the textfile's counter "
              f"{counter:.1f} s)")

    preempted = lab.by_instance("sum by (instance) (increase(idlegpu_preemptions_total[1h]))")
    check({k: round(v) for k, v in preempted.items()} == opens,
          f"preemptions in the last hour: {{{', '.join(f'{k}: {v:.2f}' for k, v in sorted(preempted.items()))}}}"
          f" (opens made: {opens})")

    lower, upper, count = histogram_bucket_of_p99(lab)
    p99 = lab.query("histogram_quantile(0.99, sum by (le) (increase(idlegpu_preemption_latency_seconds_bucket[1h])))")
    p50 = lab.query("histogram_quantile(0.5, sum by (le) (increase(idlegpu_preemption_latency_seconds_bucket[1h])))")
    p99 = p99[0][1] if p99 else math.nan
    p50 = p50[0][1] if p50 else math.nan
    bucket = f"({lower * 1000:g}, {upper * 1000:g}] ms" if upper is not None else "none"
    check(count == sum(opens.values()) and math.isfinite(p99) and upper is not None and lower < p99 <= upper <= 10,
          f"p99 from the owner's open to the stop: {p99 * 1000:.2f} ms (p50 {p50 * 1000:.2f} ms), in the textfiles' "
          f"bucket {bucket} of {count:g} timed preemptions")
    for name in lab.nodes:
        errors = lab.by_instance(f'node_textfile_scrape_error{{instance="{name}"}}')
        check(errors == {name: 0}, f"node_exporter of {name} reads the textfile without error")

    # --- the shipped rules, loaded -------------------------------------------------------------------------------
    groups = lab.api("rules").get("data", {}).get("groups", [])
    rules = {r["name"]: r for g in groups if g.get("file") == RULES for r in g["rules"]}
    check(sorted(rules) == sorted(ALERTS) and all(r.get("health") == "ok" and not r.get("lastError")
                                                  for r in rules.values()),
          "/api/v1/rules: " + ", ".join(f"{n} {r.get('health')} {r.get('state')}" for n, r in sorted(rules.items())))
    alerts = lab.api("alerts").get("data", {}).get("alerts", [])
    failing = [a for a in alerts if a["labels"].get("alertname") == "IdlegpuWorkloadFailing"
               and a["state"] == "firing" and a["labels"].get("instance") == "ws3"
               and a["labels"].get("workload") == "process-flaky"]
    check(len(failing) == 1 and "ws3" in failing[0]["annotations"].get("summary", "")
          and "GPU(s) 0" in failing[0]["annotations"].get("description", ""),
          "IdlegpuWorkloadFailing fires for ws3's flaky: " + (failing[0]["annotations"]["summary"] if failing else
                                                              json.dumps(alerts)[:500]))
    others = [a["labels"]["alertname"] for a in alerts if a["labels"].get("alertname") in ("IdlegpuDown",
                                                                                          "IdlegpuGuardStale")]
    check(not others, f"no IdlegpuDown or IdlegpuGuardStale while every idlegpu runs: {others}")

    check_dashboard(lab)

    # --- idlegpu stopped on ws1, killed on ws2 -------------------------------------------------------------------
    lab.stop(lab.nodes["ws2"]["idlegpu"], signal.SIGKILL)
    killed_at = time.time()
    lab.stop(lab.nodes["ws1"]["idlegpu"], signal.SIGTERM)
    check(wait_for(10, lambda: lab.by_instance('idlegpu_up{instance="ws1"}') == {"ws1": 0}, 0.25),
          "ws1's last file says idlegpu_up 0")

    def down_alerts():
        return sorted((a["labels"].get("instance"), a["labels"].get("gpu"), a["state"])
                      for a in lab.api("alerts").get("data", {}).get("alerts", [])
                      if a["labels"].get("alertname") == "IdlegpuDown")
    check(wait_for(10, lambda: down_alerts() == [("ws1", "1", "pending")], 0.25),
          f"IdlegpuDown pending (for: 5m) for the GPU ws1 lent, not for its miner's GPU 0: {down_alerts()}")
    time.sleep(max(0.0, killed_at + 3 - time.time()))
    age = lab.by_instance('time() - idlegpu_last_update_timestamp_seconds{instance="ws2"}').get("ws2", 0)
    still_lent = lab.by_instance('sum by (instance) (idlegpu_gpu_lent{instance="ws2"} == 1)')
    stale_now = lab.query(f'idlegpu_gpu_lent == 1 and on(instance) '
                          f'(time() - idlegpu_last_update_timestamp_seconds > {int(age) - 1})')
    check(still_lent == {"ws2": 2} and age >= 2.5 and
          sorted(l.get("gpu") for l, _ in (stale_now or []) if l.get("instance") == "ws2") == ["1", "2"],
          f"after SIGKILL ws2's GPUs 1 and 2 stay lent while its file ages ({age:.1f} s): IdlegpuGuardStale's "
          f"expression picks them once the age passes its 120 s")


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    missing = [tool for tool in ("prometheus", "promtool", "prometheus-node-exporter") if not shutil.which(tool)]
    if missing:
        print(f"SKIP: missing {', '.join(missing)} (apt-get install prometheus prometheus-node-exporter)")
        return 77
    if not shutil.which("flock"):
        print("SKIP: missing flock (util-linux), which the fake Slurm clients use")
        return 77
    lab = Lab(os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2]))
    os.makedirs(lab.path("log"))
    # ctest's timeout and Ctrl-C: stop what was started.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    try:
        scenario(lab)
    finally:
        lab.stop_all()
        if failures:
            for name in sorted(os.listdir(lab.path("log"))):
                print(f"--- {name}")
                with open(lab.path("log", name), errors="replace") as f:
                    print("".join(f.readlines()[-25:]))
        shutil.rmtree(lab.base, ignore_errors=True)
        log(f"torn down; {failures} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
