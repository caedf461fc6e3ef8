<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>Autostart</name>
    <message>
        <source>Cannot remove %1</source>
        <translation>无法删除 %1</translation>
    </message>
    <message>
        <source>Cannot create the folder %1</source>
        <translation>无法创建文件夹 %1</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
</context>
<context>
    <name>GpuHistoryGraph</name>
    <message>
        <source>The last hour: solid = workload running, hatched = busy with your jobs, empty = free</source>
        <translation>最近一小时：实心 = 空闲任务运行中，斜线 = 被您的作业占用，空白 = 空闲</translation>
    </message>
</context>
<context>
    <name>Notifier</name>
    <message>
        <source>Workload stopped</source>
        <translation>任务已停止</translation>
    </message>
    <message>
        <source>Stopped %1 on GPU %2: %3 opened the GPU</source>
        <translation>已停止 GPU %2 上的 %1：%3 打开了该 GPU</translation>
    </message>
    <message>
        <source>%1 failed %2 times in a row; idlegpu keeps retrying it, less and less often.</source>
        <translation>%1 已连续失败 %2 次；idlegpu 会继续重试，但间隔越来越长。</translation>
    </message>
    <message>
        <source>%1 failed %2 times in a row (last: %3); idlegpu keeps retrying it, less and less often.</source>
        <translation>%1 已连续失败 %2 次（最近一次：%3）；idlegpu 会继续重试，但间隔越来越长。</translation>
    </message>
    <message>
        <source>Workload failing</source>
        <translation>任务反复失败</translation>
    </message>
    <message>
        <source>Configuration not applied</source>
        <translation>配置未应用</translation>
    </message>
    <message>
        <source>%1
The previous configuration stays in force.</source>
        <translation>%1
之前的配置仍然有效。</translation>
    </message>
    <message>
        <source>idlegpu</source>
        <translation>idlegpu</translation>
    </message>
    <message>
        <source>1 more preemption</source>
        <translation>另有 1 次抢占</translation>
    </message>
    <message>
        <source>%1 more preemptions</source>
        <translation>另有 %1 次抢占</translation>
    </message>
    <message>
        <source>1 more workload failing</source>
        <translation>另有 1 个任务失败</translation>
    </message>
    <message>
        <source>%1 more workloads failing</source>
        <translation>另有 %1 个任务失败</translation>
    </message>
    <message>
        <source>1 more configuration error</source>
        <translation>另有 1 个配置错误</translation>
    </message>
    <message>
        <source>%1 more configuration errors</source>
        <translation>另有 %1 个配置错误</translation>
    </message>
</context>
<context>
    <name>StatusText</name>
    <message>
        <source>Waiting: GPUs free, nothing running</source>
        <translation>等待中：GPU 空闲，没有任务在运行</translation>
    </message>
    <message>
        <source>GPUs in use by your jobs</source>
        <translation>GPU 正被您的作业使用</translation>
    </message>
    <message>
        <source>Running idle workloads</source>
        <translation>正在运行空闲任务</translation>
    </message>
    <message>
        <source>Paused</source>
        <translation>已暂停</translation>
    </message>
    <message>
        <source>No GPU found</source>
        <translation>未找到 GPU</translation>
    </message>
    <message>
        <source>Needs attention</source>
        <translation>需要处理</translation>
    </message>
    <message>
        <source>a process of another user (not visible without root)</source>
        <translation>另一用户的进程（没有 root 权限时不可见）</translation>
    </message>
    <message>
        <source>%1 (%2, pid %3)</source>
        <translation>%1（%2，pid %3）</translation>
    </message>
    <message>
        <source>, </source>
        <translation>，</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>stopping</source>
        <translation>正在停止</translation>
    </message>
    <message>
        <source>failing</source>
        <translation>反复失败</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 分钟</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 小时 %2 分钟</translation>
    </message>
    <message>
        <source>running %1</source>
        <translation>正在运行 %1</translation>
    </message>
    <message>
        <source>running %1 since %2</source>
        <translation>自 %2 起运行 %1</translation>
    </message>
    <message>
        <source>busy — %1</source>
        <translation>忙碌 — %1</translation>
    </message>
    <message>
        <source>free, starting at %1</source>
        <translation>空闲，将于 %1 启动</translation>
    </message>
    <message>
        <source>free, starting in %1 s</source>
        <translation>空闲，%1 秒后启动</translation>
    </message>
    <message>
        <source>free</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>free — %1</source>
        <translation>空闲 — %1</translation>
    </message>
</context>
<context>
    <name>StatusWindow</name>
    <message>
        <source>idlegpu status</source>
        <translation>idlegpu 状态</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Activity</source>
        <translation>活动</translation>
    </message>
    <message>
        <source>Held by</source>
        <translation>占用者</translation>
    </message>
    <message>
        <source>Workload</source>
        <translation>任务</translation>
    </message>
    <message>
        <source>Workload state</source>
        <translation>任务状态</translation>
    </message>
    <message>
        <source>Run today</source>
        <translation>今日运行</translation>
    </message>
    <message>
        <source>Run in total</source>
        <translation>累计运行</translation>
    </message>
    <message>
        <source>No GPU device node found in %1</source>
        <translation>在 %1 中未找到 GPU 设备节点</translation>
    </message>
    <message>
        <source>GPU %1, last hour</source>
        <translation>GPU %1，最近一小时</translation>
    </message>
</context>
<context>
    <name>TrayController</name>
    <message>
        <source>idlegpu — %1</source>
        <translation>idlegpu — %1</translation>
    </message>
    <message>
        <source>Configuration error: %1</source>
        <translation>配置错误：%1</translation>
    </message>
    <message>
        <source>%1 failing (%2), retry in %3</source>
        <translation>%1 失败（%2），%3 后重试</translation>
    </message>
    <message>
        <source>no exit status</source>
        <translation>无退出状态</translation>
    </message>
    <message>
        <source>All workloads paused until %1</source>
        <translation>所有任务已暂停，直到 %1</translation>
    </message>
    <message>
        <source>All workloads paused</source>
        <translation>所有任务已暂停</translation>
    </message>
    <message>
        <source>No GPU device node found in %1</source>
        <translation>在 %1 中未找到 GPU 设备节点</translation>
    </message>
    <message>
        <source>GPU %1: %2</source>
        <translation>GPU %1：%2</translation>
    </message>
    <message>
        <source>GPU %1</source>
        <translation>GPU %1</translation>
    </message>
    <message>
        <source>Workload: %1 (%2)</source>
        <translation>任务：%1（%2）</translation>
    </message>
    <message>
        <source>Pause all</source>
        <translation>全部暂停</translation>
    </message>
    <message>
        <source>Resume (paused until %1)</source>
        <translation>继续（已暂停至 %1）</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>继续</translation>
    </message>
    <message>
        <source>Pause for 1 hour</source>
        <translation>暂停 1 小时</translation>
    </message>
    <message>
        <source>Pause %1</source>
        <translation>暂停 %1</translation>
    </message>
    <message>
        <source>Simulate a job on GPU %1</source>
        <translation>在 GPU %1 上模拟一个作业</translation>
    </message>
    <message>
        <source>Status…</source>
        <translation>状态…</translation>
    </message>
    <message>
        <source>Settings…</source>
        <translation>设置…</translation>
    </message>
    <message>
        <source>Not available yet: edit the configuration file; idlegpu reloads it when it is saved.</source>
        <translation>尚不可用：请编辑配置文件；保存后 idlegpu 会自动重新加载。</translation>
    </message>
    <message>
        <source>Open log</source>
        <translation>打开日志</translation>
    </message>
    <message>
        <source>Start at login</source>
        <translation>登录时启动</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>退出</translation>
    </message>
</context>
<context>
    <name>TrayMode</name>
    <message>
        <source>idlegpu is already running for %1 (pid %2).</source>
        <translation>idlegpu 已在为 %1 运行（pid %2）。</translation>
    </message>
    <message>
        <source>idlegpu</source>
        <translation>idlegpu</translation>
    </message>
</context>
<context>
    <name>idlegpu</name>
    <message>
        <source>%1: the configuration has errors and would not be used.</source>
        <translation>%1：配置有错误，不会被使用。</translation>
    </message>
    <message>
        <source>Using gpu_mon&apos;s configuration file (no idlegpu.conf exists).</source>
        <translation>正在使用 gpu_mon 的配置文件（不存在 idlegpu.conf）。</translation>
    </message>
    <message>
        <source>%1: the configuration has errors; run idlegpu --check-config.</source>
        <translation>%1：配置有错误；请运行 idlegpu --check-config。</translation>
    </message>
    <message>
        <source>idlegpu is already running for %1 (pid %2); not starting a second one.</source>
        <translation>idlegpu 已在为 %1 运行（pid %2）；不会启动第二个实例。</translation>
    </message>
    <message>
        <source>%1: cannot start with this configuration.</source>
        <translation>%1：无法以此配置启动。</translation>
    </message>
    <message>
        <source>Run the monitor without a tray icon, logging to stderr (for systemd or supervisord).</source>
        <translation>不带托盘图标运行监视器，日志输出到 stderr（用于 systemd 或 supervisord）。</translation>
    </message>
    <message>
        <source>Print each GPU, who holds it and what would run, then exit.</source>
        <translation>打印每个 GPU、其占用者以及将要运行的任务，然后退出。</translation>
    </message>
    <message>
        <source>With --status: print JSON.</source>
        <translation>与 --status 一起使用：输出 JSON。</translation>
    </message>
    <message>
        <source>Check the configuration file: print it as understood and exit 0, or print every problem as FILE:LINE: message and exit 1.</source>
        <translation>检查配置文件：按解析结果打印配置并以 0 退出，或将每个问题打印为 FILE:LINE: message 并以 1 退出。</translation>
    </message>
    <message>
        <source>Use FILE instead of ~/.config/idlegpu/idlegpu.conf (or gpu_mon&apos;s ~/.config/gpu_mon.conf).</source>
        <translation>使用 FILE 代替 ~/.config/idlegpu/idlegpu.conf（或 gpu_mon 的 ~/.config/gpu_mon.conf）。</translation>
    </message>
    <message>
        <source>FILE</source>
        <translation>FILE</translation>
    </message>
    <message>
        <source>--json goes with --status.</source>
        <translation>--json 须与 --status 一起使用。</translation>
    </message>
    <message>
        <source>Runs idle workloads (a miner, BOINC, any batch job) on GPUs that nobody else uses, and stops them the moment another program opens the GPU. Without a mode option it runs in the system tray.</source>
        <translation>在无人使用的 GPU 上运行空闲任务（矿工程序、BOINC 或任何批处理命令），并在其他程序打开该 GPU 的瞬间停止它们。不加模式选项时在系统托盘中运行。</translation>
    </message>
    <message>
        <source>Show the tray with two simulated GPUs and a harmless workload, to see preemption without an NVIDIA card. Leaves nothing behind.</source>
        <translation>显示带有两个模拟 GPU 和一个无害任务的托盘，无需 NVIDIA 显卡即可观看抢占过程。不会留下任何痕迹。</translation>
    </message>
    <message>
        <source>Choose one of --headless, --status, --check-config and --demo.</source>
        <translation>请在 --headless、--status、--check-config 和 --demo 中只选择一个。</translation>
    </message>
    <message>
        <source>--demo shows the tray and needs a desktop (no DISPLAY or WAYLAND_DISPLAY is set).</source>
        <translation>--demo 会显示托盘，需要桌面环境（未设置 DISPLAY 或 WAYLAND_DISPLAY）。</translation>
    </message>
    <message>
        <source>Processes of other users that could not be inspected: %1. idlegpu still notices when they open a GPU, but not who they are (run as root to see them).</source>
        <translation>无法检查的其他用户进程：%1 个。idlegpu 仍能察觉它们打开 GPU，但无法得知它们是谁（以 root 身份运行即可看到）。</translation>
    </message>
</context>
</TS>
