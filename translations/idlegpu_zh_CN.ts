<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>ActivitySettingsPage</name>
    <message>
        <source>While someone works in a terminal (a pseudo-terminal, such as an ssh login), idlegpu stops all workloads.</source>
        <translation>有人在终端（伪终端，例如 ssh 登录）中工作时，idlegpu 会停止所有工作负载。</translation>
    </message>
    <message>
        <source>Stop workloads while a user is active in a terminal</source>
        <translation>用户在终端中活动时停止工作负载</translation>
    </message>
    <message>
        <source>At the computer</source>
        <translation>在电脑前</translation>
    </message>
    <message>
        <source>Pause every workload while I am at the computer</source>
        <translation>我在电脑前时暂停所有工作负载</translation>
    </message>
    <message>
        <source>When this is off, only the GPUs decide. When it is on, workloads run only after nobody has used the keyboard or mouse for a while; a locked screen counts as away at once. When the desktop cannot tell, you count as present.</source>
        <translation>关闭时只由 GPU 决定。开启时，只有在一段时间内无人使用键盘或鼠标后，工作负载才会运行；锁屏立即算作离开。桌面无法判断时，视为你在电脑前。</translation>
    </message>
    <message>
        <source>How long nobody may have touched the keyboard or mouse before you count as away.</source>
        <translation>键盘和鼠标无人操作多久后算作你已离开。</translation>
    </message>
    <message>
        <source>You are away after no input for:</source>
        <translation>无输入多久后算作离开：</translation>
    </message>
    <message>
        <source>Always</source>
        <translation>始终</translation>
    </message>
    <message>
        <source>Nights and weekends</source>
        <translation>夜间和周末</translation>
    </message>
    <message>
        <source>Nights</source>
        <translation>夜间</translation>
    </message>
    <message>
        <source>Weekends</source>
        <translation>周末</translation>
    </message>
    <message>
        <source>Schedule</source>
        <translation>时间表</translation>
    </message>
    <message>
        <source>Workloads run only at these times; outside them every workload stops. Write rules separated by commas: days (Mon-Fri, Sat), times (22:00-07:00 crosses midnight) or both (Mon-Fri 18:00-08:00). Leave it empty to run at any time.</source>
        <translation>工作负载只在这些时间运行；其余时间所有工作负载都会停止。规则之间用逗号分隔：星期（Mon-Fri、Sat）、时间（22:00-07:00 跨越午夜）或两者（Mon-Fri 18:00-08:00）。留空则任何时间都可运行。</translation>
    </message>
    <message>
        <source>Nobody: write user names, separated by commas</source>
        <translation>无：填写用户名，用逗号分隔</translation>
    </message>
    <message>
        <source>The terminals of these users never stop a workload.</source>
        <translation>这些用户的终端从不会停止工作负载。</translation>
    </message>
    <message>
        <source>Users whose terminals do not count:</source>
        <translation>终端不计入的用户：</translation>
    </message>
    <message>
        <source>A terminal where nobody typed for this long no longer counts as active.</source>
        <translation>终端无人输入达到此时长后，不再算作活动。</translation>
    </message>
    <message>
        <source>A terminal counts as idle after:</source>
        <translation>终端空闲判定时长：</translation>
    </message>
    <message>
        <source>Presets</source>
        <translation>预设</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>Run workloads:</source>
        <translation>运行工作负载：</translation>
    </message>
    <message>
        <source>Terminals</source>
        <translation>终端</translation>
    </message>
    <message>
        <source>Now inside the schedule: workloads may run until %1.</source>
        <translation>当前在时间表内：工作负载可运行至 %1。</translation>
    </message>
    <message>
        <source>Now inside the schedule, at every hour of the week.</source>
        <translation>当前在时间表内，且一周中每个小时都在其中。</translation>
    </message>
    <message>
        <source>Now outside the schedule: workloads wait until %1.</source>
        <translation>当前在时间表外：工作负载等待至 %1。</translation>
    </message>
    <message>
        <source>Workloads never run on this schedule.</source>
        <translation>按此时间表，工作负载永远不会运行。</translation>
    </message>
</context>
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
    <name>ConfigBanner</name>
    <message>
        <source>Fix in Settings…</source>
        <translation>在设置中修正…</translation>
    </message>
    <message>
        <source>Line %1: %2</source>
        <translation>第 %1 行：%2</translation>
    </message>
    <message>
        <source>The configuration has 1 problem.</source>
        <translation>配置中有 1 个问题。</translation>
    </message>
    <message>
        <source>The configuration has %1 problems.</source>
        <translation>配置中有 %1 个问题。</translation>
    </message>
    <message>
        <source>%1 It was not applied: idlegpu goes on with the last good one.</source>
        <translation>%1 该配置未被应用：idlegpu 继续使用上一份正确的配置。</translation>
    </message>
</context>
<context>
    <name>DashboardText</name>
    <message>
        <source>%1 GPU-h</source>
        <translation>%1 GPU·小时</translation>
    </message>
    <message>
        <source>%1 Wh</source>
        <translation>%1 Wh</translation>
    </message>
    <message>
        <source>%1 kWh</source>
        <translation>%1 kWh</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>Utilization</source>
        <translation>利用率</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>显存</translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation>温度</translation>
    </message>
    <message>
        <source>Power</source>
        <translation>功率</translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation>%1%</translation>
    </message>
    <message>
        <source>%1 GiB</source>
        <translation>%1 GiB</translation>
    </message>
    <message>
        <source>%1 °C</source>
        <translation>%1 °C</translation>
    </message>
    <message>
        <source>%1 W</source>
        <translation>%1 W</translation>
    </message>
    <message>
        <source>workload</source>
        <translation>工作负载</translation>
    </message>
    <message>
        <source>your jobs</source>
        <translation>您的作业</translation>
    </message>
    <message>
        <source>idle</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>not watched</source>
        <translation>未监视</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>, </source>
        <translation>，</translation>
    </message>
    <message>
        <source>starts again as soon as the GPU is free</source>
        <translation>GPU 空闲后立即重新启动</translation>
    </message>
    <message>
        <source>starts again %1 after the GPU is free</source>
        <translation>GPU 空闲 %1 后重新启动</translation>
    </message>
    <message>
        <source>starts again at %1</source>
        <translation>将于 %1 重新启动</translation>
    </message>
    <message>
        <source>does not start again for now (%1)</source>
        <translation>暂不重新启动（%1）</translation>
    </message>
    <message>
        <source>running again</source>
        <translation>已重新运行</translation>
    </message>
    <message>
        <source>the workload</source>
        <translation>工作负载</translation>
    </message>
    <message>
        <source>Stopped %1 at %2 for %3</source>
        <translation>于 %2 为 %3 停止了 %1</translation>
    </message>
    <message>
        <source>%1, %2 after its open</source>
        <translation>%1，在其打开 GPU 后 %2</translation>
    </message>
    <message>
        <source>%1; %2</source>
        <translation>%1；%2</translation>
    </message>
    <message>
        <source>All GPUs</source>
        <translation>所有 GPU</translation>
    </message>
    <message>
        <source>GPU %1</source>
        <translation>GPU %1</translation>
    </message>
    <message>
        <source>GPUs %1</source>
        <translation>GPU %1</translation>
    </message>
    <message>
        <source>Paused until %1</source>
        <translation>已暂停，直到 %1</translation>
    </message>
    <message>
        <source>Paused</source>
        <translation>已暂停</translation>
    </message>
    <message>
        <source>Paused with all workloads until %1</source>
        <translation>随所有工作负载暂停，直到 %1</translation>
    </message>
    <message>
        <source>Paused with all workloads</source>
        <translation>随所有工作负载暂停</translation>
    </message>
    <message>
        <source>Running on %1</source>
        <translation>正在 %1 上运行</translation>
    </message>
    <message>
        <source>Running on %1 since %2</source>
        <translation>自 %2 起在 %1 上运行</translation>
    </message>
    <message>
        <source>Stopping</source>
        <translation>正在停止</translation>
    </message>
    <message>
        <source>Failing; tries again at %1</source>
        <translation>运行失败；将于 %1 重试</translation>
    </message>
    <message>
        <source>Failing (%1); tries again at %2</source>
        <translation>运行失败（%1）；将于 %2 重试</translation>
    </message>
    <message>
        <source>Failed to stop, its GPUs stay lent; tries again at %1</source>
        <translation>停止失败，其 GPU 仍被占用；将于 %1 重试</translation>
    </message>
    <message>
        <source>Waiting: its GPU %1 is not on this machine — choose another GPU in Settings</source>
        <translation>等待中：它的 GPU %1 不在这台机器上 — 请在设置中选择其他 GPU</translation>
    </message>
    <message>
        <source>Waiting: its GPUs (%1) are not on this machine — choose other GPUs in Settings</source>
        <translation>等待中：它的 GPU（%1）不在这台机器上 — 请在设置中选择其他 GPU</translation>
    </message>
    <message>
        <source>Waiting: there is no GPU on this machine yet</source>
        <translation>等待中：这台机器上还没有 GPU</translation>
    </message>
    <message>
        <source>Off — turn it on in Settings</source>
        <translation>已关闭 — 可在设置中开启</translation>
    </message>
    <message>
        <source>Waiting: %1</source>
        <translation>等待中：%1</translation>
    </message>
    <message>
        <source>Starting</source>
        <translation>正在启动</translation>
    </message>
</context>
<context>
    <name>DesktopNotificationSink</name>
    <message>
        <source>Show</source>
        <translation>显示</translation>
    </message>
    <message>
        <source>Pause for 1 hour</source>
        <translation>暂停 1 小时</translation>
    </message>
</context>
<context>
    <name>DraftRules</name>
    <message>
        <source>Enter a whole number of seconds from %1 to %2.</source>
        <translation>请输入 %1 到 %2 之间的整数秒数。</translation>
    </message>
    <message>
        <source>Choose at least one GPU, or All GPUs.</source>
        <translation>请至少选择一个 GPU，或选择所有 GPU。</translation>
    </message>
    <message>
        <source>No GPU is detected right now: GPU %1 cannot be checked.</source>
        <translation>当前未检测到任何 GPU：无法检查 GPU %1。</translation>
    </message>
    <message>
        <source>GPU %1 is not present.</source>
        <translation>GPU %1 不存在。</translation>
    </message>
    <message>
        <source>“%1” cannot be a program name: no commas, no spaces around it.</source>
        <translation>“%1”不能作为程序名：不能含逗号，前后不能有空格。</translation>
    </message>
    <message>
        <source>Enter a name.</source>
        <translation>请输入名称。</translation>
    </message>
    <message>
        <source>Another workload is already named “%1”.</source>
        <translation>已有另一个工作负载名为“%1”。</translation>
    </message>
    <message>
        <source>“%1”</source>
        <translation>“%1”</translation>
    </message>
    <message>
        <source>%1 goes first on a GPU this workload also uses: this one waits while it runs there.</source>
        <translation>%1 在本工作负载也使用的 GPU 上优先：它在那里运行时，本工作负载等待。</translation>
    </message>
    <message>
        <source>%1 go first on GPUs this workload also uses: this one waits while they run there.</source>
        <translation>%1 在本工作负载也使用的 GPU 上优先：它们在那里运行时，本工作负载等待。</translation>
    </message>
    <message>
        <source>%1 also uses one of its GPUs and waits while this one runs there.</source>
        <translation>%1 也使用其中一个 GPU，本工作负载在那里运行时它会等待。</translation>
    </message>
    <message>
        <source>%1 also use its GPUs and wait while this one runs there.</source>
        <translation>%1 也使用这些 GPU，本工作负载在那里运行时它们会等待。</translation>
    </message>
    <message>
        <source>The folder “%1” does not exist.</source>
        <translation>文件夹“%1”不存在。</translation>
    </message>
    <message>
        <source>Enter the command to run.</source>
        <translation>请输入要运行的命令。</translation>
    </message>
    <message>
        <source>The command cannot be split into words: %1.</source>
        <translation>无法将命令拆分为单词：%1。</translation>
    </message>
    <message>
        <source>The command names no program.</source>
        <translation>命令中没有程序名。</translation>
    </message>
    <message>
        <source>“%1” is a folder, not a file.</source>
        <translation>“%1”是文件夹，不是文件。</translation>
    </message>
    <message>
        <source>Row %1: “%2” is not a variable name (letters, digits and _, not starting with a digit).</source>
        <translation>第 %1 行：“%2”不是变量名（字母、数字和 _，不能以数字开头）。</translation>
    </message>
    <message>
        <source>Row %1: a value cannot hold a line break.</source>
        <translation>第 %1 行：值中不能包含换行。</translation>
    </message>
    <message>
        <source>There is no user “%1”.</source>
        <translation>不存在用户“%1”。</translation>
    </message>
    <message>
        <source>Only root can run a workload as another user (“%1”).</source>
        <translation>只有 root 才能以其他用户（“%1”）运行工作负载。</translation>
    </message>
    <message>
        <source>This workload runs as root, with every privilege.</source>
        <translation>此工作负载以 root 身份运行，拥有全部权限。</translation>
    </message>
    <message>
        <source>Not a schedule: %1.</source>
        <translation>不是有效的时间表：%1。</translation>
    </message>
    <message>
        <source>idlegpu runs as root, so without a user this workload runs as root, with every privilege (as gpu_mon ran it): enter a user to run it as that user.</source>
        <translation>idlegpu 以 root 运行，因此未指定用户时此工作负载将以 root 身份运行，拥有全部权限（与 gpu_mon 的做法相同）：输入一个用户即可以该用户身份运行。</translation>
    </message>
    <message>
        <source>Enter the command that lets the service use the GPUs.</source>
        <translation>请输入允许该服务使用 GPU 的命令。</translation>
    </message>
    <message>
        <source>Enter the command that makes the service leave the GPUs.</source>
        <translation>请输入让该服务让出 GPU 的命令。</translation>
    </message>
    <message>
        <source>The workload&apos;s user cannot enter the folder “%1”.</source>
        <translation>工作负载的用户无法进入文件夹“%1”。</translation>
    </message>
    <message>
        <source>The program “%1” does not exist yet: the workload cannot start until it does.</source>
        <translation>程序“%1”尚不存在：在它出现之前，工作负载无法启动。</translation>
    </message>
    <message>
        <source>The program “%1” is not found in the workload&apos;s PATH: the workload cannot start until it is there.</source>
        <translation>在工作负载的 PATH 中找不到程序“%1”：在它出现在那里之前，工作负载无法启动。</translation>
    </message>
    <message>
        <source>“%1” is not a program the workload&apos;s user can run.</source>
        <translation>“%1”不是工作负载的用户可以运行的程序。</translation>
    </message>
    <message>
        <source>The log file “%1” is not writable for the workload&apos;s user.</source>
        <translation>工作负载的用户无法写入日志文件“%1”。</translation>
    </message>
    <message>
        <source>The workload&apos;s user cannot create a file in the folder “%1”.</source>
        <translation>工作负载的用户无法在文件夹“%1”中创建文件。</translation>
    </message>
</context>
<context>
    <name>GeneralSettingsPage</name>
    <message>
        <source>How long a GPU must stay free before a workload starts on it.</source>
        <translation>GPU 需要空闲多久才会在其上启动工作负载。</translation>
    </message>
    <message>
        <source>How often idlegpu looks at the GPUs when nothing happens. A program that opens a GPU is noticed at once anyway.</source>
        <translation>没有动静时 idlegpu 多久查看一次 GPU。程序打开 GPU 时总会被立即察觉。</translation>
    </message>
    <message>
        <source>Check the GPUs every:</source>
        <translation>检查 GPU 的间隔：</translation>
    </message>
    <message>
        <source>Start a workload after the GPU is free for:</source>
        <translation>GPU 空闲多久后启动工作负载：</translation>
    </message>
    <message>
        <source>A workload was stopped because a program opened its GPU</source>
        <translation>某个程序打开了工作负载的 GPU，工作负载因此被停止</translation>
    </message>
    <message>
        <source>A workload keeps failing</source>
        <translation>工作负载反复失败</translation>
    </message>
    <message>
        <source>The configuration file has an error</source>
        <translation>配置文件有错误</translation>
    </message>
    <message>
        <source>Notify me when:</source>
        <translation>在以下情况通知我：</translation>
    </message>
    <message>
        <source>Start idlegpu when I log in</source>
        <translation>登录时启动 idlegpu</translation>
    </message>
    <message>
        <source>Not a key of the configuration file: idlegpu adds or removes its entry in ~/.config/autostart.</source>
        <translation>这不是配置文件中的键：idlegpu 会在 ~/.config/autostart 中添加或删除自己的条目。</translation>
    </message>
    <message>
        <source>Start at login:</source>
        <translation>登录时启动：</translation>
    </message>
</context>
<context>
    <name>GpuCard</name>
    <message>
        <source>%1 (as %2)</source>
        <translation>%1（以 %2 身份）</translation>
    </message>
    <message>
        <source>PCI bus %1</source>
        <translation>PCI 总线 %1</translation>
    </message>
    <message>
        <source>nvidia-smi index %1</source>
        <translation>nvidia-smi 编号 %1</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Last preemption</source>
        <translation>最近一次抢占</translation>
    </message>
    <message>
        <source>Holders</source>
        <translation>占用者</translation>
    </message>
    <message>
        <source>Workload</source>
        <translation>工作负载</translation>
    </message>
    <message>
        <source>Workload time</source>
        <translation>工作负载时长</translation>
    </message>
    <message>
        <source>Last hour</source>
        <translation>最近一小时</translation>
    </message>
    <message>
        <source>Last 24 hours</source>
        <translation>最近 24 小时</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>Busy</source>
        <translation>忙碌</translation>
    </message>
    <message>
        <source>Waiting</source>
        <translation>等待中</translation>
    </message>
    <message>
        <source>Idle</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>GPU %1</source>
        <translation>GPU %1</translation>
    </message>
    <message>
        <source>GPU %1 · %2</source>
        <translation>GPU %1 · %2</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source>%1 today, %2 this week, %3 in total</source>
        <translation>今天 %1，本周 %2，总计 %3</translation>
    </message>
</context>
<context>
    <name>GpuHistoryGraph</name>
    <message>
        <source>Busy and idle, the last hour</source>
        <translation>最近一小时的忙碌与空闲</translation>
    </message>
    <message>
        <source>The last hour: green = workload running, blue = busy with your jobs, dotted = waiting, empty = free</source>
        <translation>最近一小时：绿色 = 工作负载运行中，蓝色 = 被您的作业占用，点状 = 等待中，空白 = 空闲</translation>
    </message>
</context>
<context>
    <name>GpuPicker</name>
    <message>
        <source>All GPUs</source>
        <translation>所有 GPU</translation>
    </message>
    <message>
        <source>GPU %1</source>
        <translation>GPU %1</translation>
    </message>
    <message>
        <source>GPU %1 (not present)</source>
        <translation>GPU %1（不存在）</translation>
    </message>
</context>
<context>
    <name>GroupsSettingsPage</name>
    <message>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>A program on one of these GPUs makes idlegpu stop the workloads there, unless it is one of the ignored programs.</source>
        <translation>这些 GPU 上出现任何程序时，idlegpu 会停止其上的工作负载，被忽略的程序除外。</translation>
    </message>
    <message>
        <source>GPUs:</source>
        <translation>GPU：</translation>
    </message>
    <message>
        <source>Ignored programs:</source>
        <translation>忽略的程序：</translation>
    </message>
    <message>
        <source>Add from current holders</source>
        <translation>从当前占用者添加</translation>
    </message>
    <message>
        <source>A program computes on it</source>
        <translation>有程序在其上计算</translation>
    </message>
    <message>
        <source>A compute program opens it, or a graphics program uses a large share of it</source>
        <translation>计算程序打开它，或图形程序占用它的很大一部分</translation>
    </message>
    <message>
        <source>A program uses at least this much of its memory:</source>
        <translation>有程序至少使用这么多显存：</translation>
    </message>
    <message>
        <source>No GPU groups.</source>
        <translation>没有 GPU 组。</translation>
    </message>
    <message>
        <source>The GPUs this group&apos;s rules apply to.</source>
        <translation>此组规则适用的 GPU。</translation>
    </message>
    <message>
        <source>Programs that may hold these GPUs without stopping a workload: whole program names. The word @builtin stands for the built-in list.</source>
        <translation>可以占用这些 GPU 而不会停止工作负载的程序：填写完整程序名。@builtin 代表内置列表。</translation>
    </message>
    <message>
        <source>None given: the built-in list applies (%1).</source>
        <translation>未指定：使用内置列表（%1）。</translation>
    </message>
    <message>
        <source>A program name, such as nvidia-smi</source>
        <translation>程序名，例如 nvidia-smi</translation>
    </message>
    <message>
        <source>A compute program opens it, or a graphics program uses a large share of it (default)</source>
        <translation>计算程序打开它，或图形程序占用它的很大一部分（默认）</translation>
    </message>
    <message>
        <source>The GPU is busy when:</source>
        <translation>GPU 忙碌的条件：</translation>
    </message>
    <message>
        <source>A graphics program makes the GPU busy once it uses this share of it.</source>
        <translation>图形程序占用 GPU 达到此比例时，GPU 算作忙碌。</translation>
    </message>
    <message>
        <source>A graphics program makes it busy at:</source>
        <translation>图形程序占用达到此比例即为忙碌：</translation>
    </message>
    <message>
        <source> MiB</source>
        <translation> MiB</translation>
    </message>
    <message>
        <source>A program makes the GPU busy once it uses this much of its memory.</source>
        <translation>程序占用 GPU 显存达到此值时，GPU 算作忙碌。</translation>
    </message>
    <message>
        <source>Or when it uses this much memory:</source>
        <translation>或占用显存达到：</translation>
    </message>
    <message>
        <source>No GPU groups: the same rules apply to every GPU. idlegpu ignores the programs of the built-in list (%1), and a GPU counts as busy when a compute program opens it, or when a graphics program uses %2 % of it or %3 MiB of its memory.

Add a group to give some GPUs rules of their own.</source>
        <translation>没有 GPU 组：所有 GPU 使用相同的规则。idlegpu 忽略内置列表中的程序（%1）；当计算程序打开 GPU，或图形程序占用它的 %2 % 或 %3 MiB 显存时，GPU 算作忙碌。

添加一个组，可为部分 GPU 设置各自的规则。</translation>
    </message>
    <message>
        <source>all GPUs</source>
        <translation>所有 GPU</translation>
    </message>
    <message>
        <source>GPUs %1</source>
        <translation>GPU %1</translation>
    </message>
    <message>
        <source>New group: %1</source>
        <translation>新组：%1</translation>
    </message>
    <message>
        <source>no GPU node, only the shared ones</source>
        <translation>没有 GPU 设备节点，只有共享节点</translation>
    </message>
    <message>
        <source>GPU %1</source>
        <translation>GPU %1</translation>
    </message>
    <message>
        <source>%1 (%2, pid %3; %4)</source>
        <translation>%1（%2，pid %3；%4）</translation>
    </message>
    <message>
        <source>No program holds a GPU right now</source>
        <translation>当前没有程序占用 GPU</translation>
    </message>
    <message>
        <source>Any program opens it</source>
        <translation>任何程序打开它</translation>
    </message>
    <message>
        <source>An open device node is the earliest and safest sign of a new job, but the desktop, browsers and video players keep the GPU that drives the display open all day. Waiting for a program to compute or to take memory lets them leave the workload running, but the workload is then stopped a little later: up to a fifth of a second after the job&apos;s first compute context, which needs NVML.</source>
        <translation>设备节点被打开是新作业最早、最安全的信号，但桌面、浏览器和视频播放器会整天打开驱动显示器的 GPU。等到程序开始计算或占用显存，它们就不会打断工作负载，但工作负载会停得稍晚：在作业创建第一个计算上下文后最多五分之一秒，且需要 NVML。</translation>
    </message>
    <message>
        <source>Compute programs (CUDA, ROCm: they open nvidia-uvm or /dev/kfd) count at once; graphics programs (the desktop, a browser, a video player) only while NVML or the driver measures them using this much of the GPU or its memory.</source>
        <translation>计算程序（CUDA、ROCm：它们会打开 nvidia-uvm 或 /dev/kfd）立即计入；图形程序（桌面、浏览器、视频播放器）只有在 NVML 或驱动程序测得其使用了下列比例的 GPU 或显存时才计入。</translation>
    </message>
    <message>
        <source> %</source>
        <translation> %</translation>
    </message>
</context>
<context>
    <name>HoldWords</name>
    <message>
        <source>paused</source>
        <translation>已暂停</translation>
    </message>
    <message>
        <source>outside the schedule</source>
        <translation>不在时间表内</translation>
    </message>
    <message>
        <source>outside the schedule until %1</source>
        <translation>不在时间表内（直到 %1）</translation>
    </message>
    <message>
        <source>the computer runs on battery</source>
        <translation>电脑正在使用电池供电</translation>
    </message>
    <message>
        <source>you are at the computer</source>
        <translation>您在电脑前</translation>
    </message>
    <message>
        <source>a user is active on a terminal</source>
        <translation>有用户在终端中活动</translation>
    </message>
    <message>
        <source>user %1 is active on a terminal</source>
        <translation>用户 %1 在终端中活动</translation>
    </message>
    <message>
        <source>users %1 are active on a terminal</source>
        <translation>用户 %1 在终端中活动</translation>
    </message>
    <message>
        <source>, </source>
        <translation>，</translation>
    </message>
    <message>
        <source>too hot: runs again below %1 °C</source>
        <translation>温度过高：低于 %1 °C 后再运行</translation>
    </message>
    <message>
        <source>too hot (%1 °C): runs again below %2 °C</source>
        <translation>温度过高（%1 °C）：低于 %2 °C 后再运行</translation>
    </message>
</context>
<context>
    <name>LogViewer</name>
    <message>
        <source>Copy path</source>
        <translation>复制路径</translation>
    </message>
    <message>
        <source>idlegpu log</source>
        <translation>idlegpu 日志</translation>
    </message>
    <message>
        <source>No log file</source>
        <translation>没有日志文件</translation>
    </message>
    <message>
        <source>Path copied</source>
        <translation>路径已复制</translation>
    </message>
    <message>
        <source>Reload</source>
        <translation>重新加载</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>The last %1 KiB of the log; an editor shows all of it.</source>
        <translation>日志的最后 %1 KiB；用编辑器可查看全部内容。</translation>
    </message>
    <message>
        <source>The log is empty.</source>
        <translation>日志为空。</translation>
    </message>
    <message>
        <source>idlegpu writes no log file in this mode: its messages go to the system journal.</source>
        <translation>idlegpu 在此模式下不写日志文件：其消息写入系统日志（journal）。</translation>
    </message>
    <message>
        <source>The log does not exist yet: idlegpu creates it with its first message.</source>
        <translation>日志尚不存在：idlegpu 会在写入第一条消息时创建它。</translation>
    </message>
    <message>
        <source>The log cannot be read: %1.</source>
        <translation>无法读取日志：%1。</translation>
    </message>
    <message>
        <source>The log cannot be read: it belongs to %1 and you may not read it.</source>
        <translation>无法读取日志：它属于 %1，您没有读取权限。</translation>
    </message>
    <message>
        <source>another user</source>
        <translation>其他用户</translation>
    </message>
</context>
<context>
    <name>MetricGraph</name>
    <message>
        <source>%1, the last hour: now %2, at most %3</source>
        <translation>%1，最近一小时：当前 %2，最高 %3</translation>
    </message>
    <message>
        <source>%1, the last hour</source>
        <translation>%1，最近一小时</translation>
    </message>
    <message>
        <source>−60 min</source>
        <translation>−60 分钟</translation>
    </message>
    <message>
        <source>−30 min</source>
        <translation>−30 分钟</translation>
    </message>
    <message>
        <source>now</source>
        <translation>现在</translation>
    </message>
</context>
<context>
    <name>Notifier</name>
    <message>
        <source>Workload stopped</source>
        <translation>任务已停止</translation>
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
    <message>
        <source>your program</source>
        <translation>你的程序</translation>
    </message>
    <message>
        <source>GPU %1 is yours: stopped %2 %3 ms after %4 opened it</source>
        <translation>GPU %1 归你了：%4 打开它 %3 毫秒后已停止 %2</translation>
    </message>
    <message>
        <source>GPU %1 is yours: stopped %2 after %3 opened it</source>
        <translation>GPU %1 归你了：%3 打开它后已停止 %2</translation>
    </message>
    <message>
        <source>The GPU is yours</source>
        <translation>GPU 归你了</translation>
    </message>
    <message>
        <source>Request refused</source>
        <translation>请求被拒绝</translation>
    </message>
    <message>
        <source>1 more request refused</source>
        <translation>另有 1 个请求被拒绝</translation>
    </message>
    <message>
        <source>%1 more requests refused</source>
        <translation>另有 %1 个请求被拒绝</translation>
    </message>
    <message>
        <source>A process of another user</source>
        <translation>另一用户的进程</translation>
    </message>
    <message>
        <source>A program</source>
        <translation>某个程序</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>%1 took GPU %2: stopped %3</source>
        <translation>%1 占用了 GPU %2：已停止 %3</translation>
    </message>
    <message>
        <source>%1 failed %2 times in a row</source>
        <translation>%1 已连续失败 %2 次</translation>
    </message>
    <message>
        <source>%1 failed %2 times in a row (%3)</source>
        <translation>%1 已连续失败 %2 次（%3）</translation>
    </message>
    <message>
        <source>idlegpu keeps retrying it, less and less often.</source>
        <translation>idlegpu 会继续重试，但间隔越来越长。</translation>
    </message>
    <message>
        <source>“%1”</source>
        <translation>“%1”</translation>
    </message>
    <message>
        <source>Line %1: %2</source>
        <translation>第 %1 行：%2</translation>
    </message>
    <message>
        <source>The previous configuration stays in force.</source>
        <translation>之前的配置仍然有效。</translation>
    </message>
    <message>
        <source>Paused all workloads</source>
        <translation>已暂停所有任务</translation>
    </message>
    <message>
        <source>Click the icon again to resume.</source>
        <translation>再次单击图标即可继续。</translation>
    </message>
    <message>
        <source>Resumed all workloads</source>
        <translation>所有任务已继续</translation>
    </message>
    <message>
        <source>They start again on idle GPUs. Click the icon to pause.</source>
        <translation>它们会在空闲的 GPU 上重新启动。单击图标即可暂停。</translation>
    </message>
</context>
<context>
    <name>PauseMenu</name>
    <message>
        <source>For 30 minutes</source>
        <translation>30 分钟</translation>
    </message>
    <message>
        <source>For 1 hour</source>
        <translation>1 小时</translation>
    </message>
    <message>
        <source>For 4 hours</source>
        <translation>4 小时</translation>
    </message>
    <message>
        <source>Until %1 today</source>
        <translation>直到今天 %1</translation>
    </message>
    <message>
        <source>Until %1 tomorrow</source>
        <translation>直到明天 %1</translation>
    </message>
</context>
<context>
    <name>PowerSettingsPage</name>
    <message>
        <source>Pause every workload</source>
        <translation>暂停所有工作负载</translation>
    </message>
    <message>
        <source>Keep running</source>
        <translation>继续运行</translation>
    </message>
    <message>
        <source>What the workloads do while the computer runs on its battery.</source>
        <translation>计算机使用电池供电时，工作负载如何处理。</translation>
    </message>
    <message>
        <source>On battery:</source>
        <translation>使用电池时：</translation>
    </message>
    <message>
        <source> °C</source>
        <translation> °C</translation>
    </message>
    <message>
        <source>Off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>A workload whose GPU reaches this temperature stops, and may start again once the GPU is %1 °C cooler. This needs a temperature reading (NVML or the driver). Off (0) never stops a workload for heat.</source>
        <translation>GPU 达到此温度时，其上的工作负载停止；GPU 降温 %1 °C 后可再次启动。这需要温度读数（NVML 或驱动程序）。关闭（0）则从不因温度停止工作负载。</translation>
    </message>
    <message>
        <source>Stop a workload when its GPU reaches:</source>
        <translation>GPU 达到此温度时停止工作负载：</translation>
    </message>
</context>
<context>
    <name>PreemptionList</name>
    <message>
        <source>Last preemptions</source>
        <translation>最近的抢占</translation>
    </message>
    <message>
        <source>When</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <source>For</source>
        <translation>让位给</translation>
    </message>
    <message>
        <source>Open to stop</source>
        <translation>打开到停止</translation>
    </message>
    <message>
        <source>From the foreign program&apos;s open of the GPU to the workload&apos;s stop</source>
        <translation>从外部程序打开 GPU 到工作负载停止的时间</translation>
    </message>
    <message>
        <source>No workload was stopped for a job of yours yet.</source>
        <translation>尚未有工作负载因您的作业而停止。</translation>
    </message>
    <message>
        <source>by a scan</source>
        <translation>由扫描发现</translation>
    </message>
    <message>
        <source>A scan found the job, not its open: no open-to-stop time</source>
        <translation>作业是由扫描发现的，而不是由其打开事件：没有打开到停止的时间</translation>
    </message>
</context>
<context>
    <name>RemoteMonitor</name>
    <message>
        <source>not authorized</source>
        <translation>未获授权</translation>
    </message>
    <message>
        <source>the authentication was cancelled</source>
        <translation>身份验证已取消</translation>
    </message>
    <message>
        <source>a password is needed, and nothing could ask for it</source>
        <translation>需要密码，但无处可以询问</translation>
    </message>
    <message>
        <source>too many requests; try again in a moment</source>
        <translation>请求过多，请稍后再试</translation>
    </message>
    <message>
        <source>too many authorizations are pending; try again in a moment</source>
        <translation>待处理的授权过多，请稍后再试</translation>
    </message>
    <message>
        <source>polkit does not answer, so nobody may change anything</source>
        <translation>polkit 没有响应，因此任何人都不能更改</translation>
    </message>
    <message>
        <source>the idlegpu service did not answer</source>
        <translation>idlegpu 服务没有响应</translation>
    </message>
    <message>
        <source>the idlegpu service is not running</source>
        <translation>idlegpu 服务未运行</translation>
    </message>
    <message>
        <source>The idlegpu service is not running</source>
        <translation>idlegpu 服务未运行</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <source>Configuration file: %1</source>
        <translation>配置文件：%1</translation>
    </message>
    <message>
        <source>Another program changed the configuration file.</source>
        <translation>另一个程序修改了配置文件。</translation>
    </message>
    <message>
        <source>Reload (discard my edits)</source>
        <translation>重新加载（放弃我的修改）</translation>
    </message>
    <message>
        <source>Keep my edits</source>
        <translation>保留我的修改</translation>
    </message>
    <message>
        <source>General</source>
        <translation>常规</translation>
    </message>
    <message>
        <source>GPU groups</source>
        <translation>GPU 组</translation>
    </message>
    <message>
        <source>Workloads</source>
        <translation>工作负载</translation>
    </message>
    <message>
        <source>User activity</source>
        <translation>用户活动</translation>
    </message>
    <message>
        <source>Power and heat</source>
        <translation>电源与温度</translation>
    </message>
    <message>
        <source>Show as file…</source>
        <translation>以文件形式查看…</translation>
    </message>
    <message>
        <source>Shows the text that saving writes to the configuration file, in gpu_mon&apos;s format.</source>
        <translation>显示保存时写入配置文件的文本（gpu_mon 格式）。</translation>
    </message>
    <message>
        <source>Save and start</source>
        <translation>保存并启动</translation>
    </message>
    <message>
        <source>The file cannot be read: %1</source>
        <translation>无法读取该文件：%1</translation>
    </message>
    <message>
        <source>The file has errors; where a value could not be read, the field shows its default:
%1</source>
        <translation>该文件有错误；无法读取的值，其字段显示默认值：
%1</translation>
    </message>
    <message>
        <source>“%1” is saved. idlegpu starts it as soon as its GPUs are free.</source>
        <translation>“%1”已保存。它的 GPU 一空闲，idlegpu 就会启动它。</translation>
    </message>
    <message>
        <source>“%1” is saved. idlegpu starts it once its GPUs have been free for a second.</source>
        <translation>“%1”已保存。它的 GPU 空闲一秒后，idlegpu 就会启动它。</translation>
    </message>
    <message>
        <source>“%1” is saved. idlegpu starts it once its GPUs have been free for %2 seconds.</source>
        <translation>“%1”已保存。它的 GPU 空闲 %2 秒后，idlegpu 就会启动它。</translation>
    </message>
    <message>
        <source>It stops the moment one of your own programs opens one of them. The status window shows what it does.</source>
        <translation>一旦你自己的程序打开其中一个 GPU，它就会停止。状态窗口会显示它的运行情况。</translation>
    </message>
    <message>
        <source>Discard changes?</source>
        <translation>放弃更改？</translation>
    </message>
    <message>
        <source>Your changes to the settings are not saved yet.</source>
        <translation>你对设置所做的更改尚未保存。</translation>
    </message>
    <message>
        <source>Discard them and close the settings, or keep editing?</source>
        <translation>放弃更改并关闭设置，还是继续编辑？</translation>
    </message>
    <message>
        <source>Discard</source>
        <translation>放弃</translation>
    </message>
    <message>
        <source>Keep editing</source>
        <translation>继续编辑</translation>
    </message>
    <message>
        <source>Not saved: %1</source>
        <translation>未保存：%1</translation>
    </message>
    <message>
        <source>Start at login could not be changed: %1</source>
        <translation>无法更改登录时启动：%1</translation>
    </message>
    <message>
        <source>Welcome</source>
        <translation>欢迎</translation>
    </message>
    <message>
        <source>idlegpu settings</source>
        <translation>idlegpu 设置</translation>
    </message>
    <message>
        <source>One problem keeps the settings from being saved, on the %1 page: %2</source>
        <translation>有一个问题导致设置无法保存，位于“%1”页：%2</translation>
    </message>
    <message numerus="yes">
        <source>%n problems keep the settings from being saved. The first, on the %1 page: %2</source>
        <translation>
            <numerusform>有 %n 个问题导致设置无法保存。第一个位于“%1”页：%2</numerusform>
        </translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Configuration file as it will be saved</source>
        <translation>将要保存的配置文件</translation>
    </message>
    <message>
        <source>The file cannot be shown: %1</source>
        <translation>无法显示该文件：%1</translation>
    </message>
    <message>
        <source>This is the text that saving writes to %1. Lines you did not change stay as they are.</source>
        <translation>这是保存时将写入 %1 的文本。你未更改的行保持原样。</translation>
    </message>
    <message>
        <source>Nothing is changed: this is %1 as it is now.</source>
        <translation>没有任何更改：这是 %1 的当前内容。</translation>
    </message>
    <message>
        <source>Saving through the idlegpu service…</source>
        <translation>正在通过 idlegpu 服务保存…</translation>
    </message>
    <message>
        <source>Not saved: the configuration changed meanwhile. Close this window and open Settings… again to load it.</source>
        <translation>未保存：配置在此期间已被更改。请关闭此窗口，再次打开“设置…”以重新加载。</translation>
    </message>
    <message>
        <source>The idlegpu service did not save the file; nothing was written:
%1</source>
        <translation>idlegpu 服务未保存该文件，未写入任何内容：
%1</translation>
    </message>
    <message>
        <source>Not saved: the file has errors (above).</source>
        <translation>未保存：文件有错误（见上方）。</translation>
    </message>
</context>
<context>
    <name>SettingsPage</name>
    <message>
        <source>In the configuration file: %1</source>
        <translation>配置文件中的键：%1</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
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
        <source>waiting, starting at %1</source>
        <translation>等待中，将于 %1 启动</translation>
    </message>
    <message>
        <source>waiting, starting in %1 s</source>
        <translation>等待中，%1 秒后启动</translation>
    </message>
    <message>
        <source>idle</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>idle — %1</source>
        <translation>空闲 — %1</translation>
    </message>
    <message>
        <source>open, not busy: %1</source>
        <translation>已打开但未占用：%1</translation>
    </message>
    <message>
        <source>; </source>
        <translation>；</translation>
    </message>
    <message>
        <source>Paused by a rule</source>
        <translation>已按规则暂停</translation>
    </message>
    <message>
        <source>Paused: %1</source>
        <translation>已暂停：%1</translation>
    </message>
    <message>
        <source>too hot, stopping %1</source>
        <translation>温度过高，正在停止 %1</translation>
    </message>
    <message>
        <source>idle — paused</source>
        <translation>空闲 — 已暂停</translation>
    </message>
    <message>
        <source>compute client</source>
        <translation>计算客户端</translation>
    </message>
    <message>
        <source>graphics client</source>
        <translation>图形客户端</translation>
    </message>
    <message>
        <source>unseen</source>
        <translation>不可见</translation>
    </message>
    <message>
        <source>%1, %2</source>
        <translation>%1，%2</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>Not set up yet</source>
        <translation>尚未设置</translation>
    </message>
    <message>
        <source>failed to stop, still lent</source>
        <translation>停止失败，仍在出借</translation>
    </message>
    <message>
        <source>Slurm unreachable: %1</source>
        <translation>无法连接 Slurm：%1</translation>
    </message>
    <message>
        <source>lent to the lab (no job yet)</source>
        <translation>已借给实验室（尚无作业）</translation>
    </message>
    <message>
        <source>job %1 (%2)</source>
        <translation>作业 %1（%2）</translation>
    </message>
    <message>
        <source>lent to the lab: %1</source>
        <translation>已借给实验室：%1</translation>
    </message>
    <message>
        <source>held for you — %1</source>
        <translation>为您保留 — %1</translation>
    </message>
    <message>
        <source>held for you, lent to the lab at %1</source>
        <translation>为您保留，将于 %1 借给实验室</translation>
    </message>
    <message>
        <source>held for you, lent to the lab in %1 s</source>
        <translation>为您保留，%1 秒后借给实验室</translation>
    </message>
    <message>
        <source>held for you — paused</source>
        <translation>为您保留 — 已暂停</translation>
    </message>
    <message>
        <source>held for you</source>
        <translation>为您保留</translation>
    </message>
    <message>
        <source>Paused until %1</source>
        <translation>已暂停，直到 %1</translation>
    </message>
</context>
<context>
    <name>StatusWindow</name>
    <message>
        <source>idlegpu status</source>
        <translation>idlegpu 状态</translation>
    </message>
    <message>
        <source>The colours of the busy/idle strips and the 24-hour timelines</source>
        <translation>忙碌/空闲条和 24 小时时间线的颜色</translation>
    </message>
    <message>
        <source>%1. Below is the last state it sent.</source>
        <translation>%1。下面是它最后发送的状态。</translation>
    </message>
    <message>
        <source>Pause all</source>
        <translation>全部暂停</translation>
    </message>
    <message>
        <source>Pause all for…</source>
        <translation>全部暂停一段时间…</translation>
    </message>
    <message>
        <source>Settings…</source>
        <translation>设置…</translation>
    </message>
    <message>
        <source>Open log</source>
        <translation>打开日志</translation>
    </message>
    <message>
        <source>Resume all</source>
        <translation>全部继续</translation>
    </message>
    <message>
        <source>Let every workload run again when its GPUs are free</source>
        <translation>让每个工作负载在其 GPU 空闲时重新运行</translation>
    </message>
    <message>
        <source>Stop every workload now and start none until you resume</source>
        <translation>立即停止所有工作负载，直到您选择继续前不再启动</translation>
    </message>
    <message>
        <source>Set up…</source>
        <translation>设置向导…</translation>
    </message>
    <message>
        <source>No GPU device node found in %1: the workloads wait until a GPU appears.</source>
        <translation>在 %1 中未找到 GPU 设备节点：工作负载会等待 GPU 出现。</translation>
    </message>
</context>
<context>
    <name>TestRun</name>
    <message>
        <source>Test run</source>
        <translation>试运行</translation>
    </message>
    <message>
        <source>Runs the command for %1 seconds as idlegpu would, and shows what it prints.</source>
        <translation>像 idlegpu 那样运行该命令 %1 秒，并显示其输出。</translation>
    </message>
    <message>
        <source>— stopped after %1 seconds —</source>
        <translation>— %1 秒后已停止 —</translation>
    </message>
    <message>
        <source>— ended by signal %1 —</source>
        <translation>— 被信号 %1 结束 —</translation>
    </message>
    <message>
        <source>— exited with code %1 —</source>
        <translation>— 已退出，退出码 %1 —</translation>
    </message>
    <message>
        <source>Not started: %1</source>
        <translation>未启动：%1</translation>
    </message>
    <message>
        <source>Stop test run</source>
        <translation>停止试运行</translation>
    </message>
    <message>
        <source>$ %1</source>
        <translation>$ %1</translation>
    </message>
    <message>
        <source>Not started: the command names no program.</source>
        <translation>未启动：命令中没有程序名。</translation>
    </message>
    <message>
        <source>Not started: fix “Run as user” first.</source>
        <translation>未启动：请先修正“运行用户”。</translation>
    </message>
    <message>
        <source>Not started: the folder “%1” does not exist.</source>
        <translation>未启动：文件夹“%1”不存在。</translation>
    </message>
    <message>
        <source>Not started: the program “%1” is not found.</source>
        <translation>未启动：找不到程序“%1”。</translation>
    </message>
    <message>
        <source>Not started: “%1” is not an executable program.</source>
        <translation>未启动：“%1”不是可执行程序。</translation>
    </message>
    <message>
        <source>Not started: idlegpu-reaper, which supervises the command, is not found at %1.</source>
        <translation>未启动：在 %1 找不到负责监管该命令的 idlegpu-reaper。</translation>
    </message>
</context>
<context>
    <name>TimelineStrip</name>
    <message>
        <source>The last 24 hours</source>
        <translation>最近 24 小时</translation>
    </message>
    <message>
        <source>The last 24 hours: nothing recorded yet</source>
        <translation>最近 24 小时：尚无记录</translation>
    </message>
    <message>
        <source>The last 24 hours: %1</source>
        <translation>最近 24 小时：%1</translation>
    </message>
</context>
<context>
    <name>TotalsPanel</name>
    <message>
        <source>What the idle GPUs did</source>
        <translation>空闲 GPU 完成的工作</translation>
    </message>
    <message>
        <source>Today</source>
        <translation>今天</translation>
    </message>
    <message>
        <source>This week</source>
        <translation>本周</translation>
    </message>
    <message>
        <source>In total</source>
        <translation>总计</translation>
    </message>
    <message>
        <source>Workload</source>
        <translation>工作负载</translation>
    </message>
    <message>
        <source>Preemptions</source>
        <translation>抢占次数</translation>
    </message>
    <message>
        <source>Energy</source>
        <translation>能耗</translation>
    </message>
    <message>
        <source>GPU time with an idle workload running (two GPUs for an hour: 2 GPU-h)</source>
        <translation>运行空闲工作负载的 GPU 时间（两块 GPU 运行一小时：2 GPU·小时）</translation>
    </message>
    <message>
        <source>How often a workload was stopped because a program of yours opened its GPU</source>
        <translation>因您的程序打开 GPU 而停止工作负载的次数</translation>
    </message>
    <message>
        <source>What the GPUs used while a workload ran, as the driver measures it</source>
        <translation>工作负载运行期间 GPU 的耗电量，由驱动测量</translation>
    </message>
    <message>
        <source>—</source>
        <translation>—</translation>
    </message>
    <message>
        <source>Nothing recorded yet.</source>
        <translation>尚无记录。</translation>
    </message>
    <message>
        <source>Since %1; kept across restarts.</source>
        <translation>自 %1 起；重启后保留。</translation>
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
        <source>Pause %1 (paused until %2)</source>
        <translation>暂停 %1（已暂停至 %2）</translation>
    </message>
    <message>
        <source>Pause %1 for 1 hour</source>
        <translation>将 %1 暂停 1 小时</translation>
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
    <message>
        <source>Click to choose what runs on your idle GPUs</source>
        <translation>点击选择在空闲 GPU 上运行的内容</translation>
    </message>
    <message>
        <source>idlegpu is not set up yet</source>
        <translation>idlegpu 尚未设置</translation>
    </message>
    <message>
        <source>Set up…</source>
        <translation>设置…</translation>
    </message>
    <message>
        <source>Runs as root (no user =): %1 — add user = NAME to drop root</source>
        <translation>以 root 运行（未设置 user =）：%1 — 添加 user = NAME 以放弃 root 权限</translation>
    </message>
    <message>
        <source>The idlegpu service is not running</source>
        <translation>idlegpu 服务未运行</translation>
    </message>
    <message>
        <source>no reason given</source>
        <translation>未说明原因</translation>
    </message>
    <message>
        <source>Pause refused: %1</source>
        <translation>暂停被拒绝：%1</translation>
    </message>
    <message>
        <source>Resume refused: %1</source>
        <translation>继续被拒绝：%1</translation>
    </message>
    <message>
        <source>Reload refused: %1</source>
        <translation>重新加载被拒绝：%1</translation>
    </message>
    <message>
        <source>Settings refused: %1</source>
        <translation>设置被拒绝：%1</translation>
    </message>
    <message>
        <source>  Last output: %1</source>
        <translation>  最后输出：%1</translation>
    </message>
    <message>
        <source>Failed (%1). Its last output:
%2</source>
        <translation>失败（%1）。最后的输出：
%2</translation>
    </message>
    <message>
        <source>Paused all workloads until %1 — click again to resume</source>
        <translation>所有任务已暂停至 %1 — 再次单击即可继续</translation>
    </message>
    <message>
        <source>Paused all workloads — click again to resume</source>
        <translation>所有任务已暂停 — 再次单击即可继续</translation>
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
    <name>WelcomeSettingsPage</name>
    <message>
        <source>NVIDIA GPU (%1)</source>
        <translation>NVIDIA GPU（%1）</translation>
    </message>
    <message>
        <source>%1, ignored</source>
        <translation>%1，已忽略</translation>
    </message>
    <message>
        <source>free</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>Welcome to idlegpu</source>
        <translation>欢迎使用 idlegpu</translation>
    </message>
    <message>
        <source>GPUs found</source>
        <translation>找到的 GPU</translation>
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
        <source>In use now by</source>
        <translation>当前使用者</translation>
    </message>
    <message>
        <source>Your first workload</source>
        <translation>您的第一个工作负载</translation>
    </message>
    <message>
        <source>Start from:</source>
        <translation>从以下开始：</translation>
    </message>
    <message>
        <source>Name:</source>
        <translation>名称：</translation>
    </message>
    <message>
        <source>Split into words like a shell does (quotes, backslashes), but no shell runs: write sh -c &apos;…&apos; for pipes or variables.</source>
        <translation>像 shell 一样拆分为单词（引号、反斜杠），但不会运行 shell：需要管道或变量时请写 sh -c &apos;…&apos;。</translation>
    </message>
    <message>
        <source>Command:</source>
        <translation>命令：</translation>
    </message>
    <message>
        <source>GPUs:</source>
        <translation>GPU：</translation>
    </message>
    <message>
        <source>The working folder, log file, environment and the rules for when to pause are on the other pages. Nothing runs until you save; then idlegpu starts the workload as soon as its GPUs are free.</source>
        <translation>工作文件夹、日志文件、环境变量以及何时暂停的规则在其他页面中。保存之前不会运行任何内容；保存后，idlegpu 会在其 GPU 空闲时立即启动该工作负载。</translation>
    </message>
    <message>
        <source>No GPU found under %1: idlegpu looks for NVIDIA device nodes (nvidia0, nvidia1, …) and the render nodes of AMD and Intel GPUs (dri/renderD128, …). Check that the driver is loaded; idlegpu notices a GPU when its node appears.</source>
        <translation>在 %1 下未找到 GPU：idlegpu 查找 NVIDIA 设备节点（nvidia0、nvidia1、…）以及 AMD 和 Intel GPU 的渲染节点（dri/renderD128、…）。请检查驱动是否已加载；节点出现时 idlegpu 会发现该 GPU。</translation>
    </message>
    <message>
        <source>root (idlegpu runs as root): enter a user to drop root</source>
        <translation>root（idlegpu 以 root 运行）：输入用户以放弃 root 权限</translation>
    </message>
    <message>
        <source>idlegpu runs a workload of your choice (a BOINC or Folding@home client, a miner, any batch job) on the GPUs nobody uses, and stops it the moment one of your own programs opens the GPU. Nothing is set up yet: choose what to run, then press Save and start.</source>
        <translation>idlegpu 在无人使用的 GPU 上运行你选择的工作负载（BOINC 或 Folding@home 客户端、矿工程序、任何批处理任务），一旦你自己的程序打开该 GPU 就立即停止它。目前尚未设置：请选择要运行的内容，然后按“保存并启动”。</translation>
    </message>
    <message>
        <source>Run as user:</source>
        <translation>运行用户：</translation>
    </message>
</context>
<context>
    <name>WorkloadCard</name>
    <message>
        <source>Its last output:</source>
        <translation>最近的输出：</translation>
    </message>
    <message>
        <source>Last output</source>
        <translation>最近的输出</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <source>Pause for…</source>
        <translation>暂停一段时间…</translation>
    </message>
    <message>
        <source>%1 (as %2)</source>
        <translation>%1（以 %2 身份）</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>继续</translation>
    </message>
    <message>
        <source>Resume %1</source>
        <translation>继续 %1</translation>
    </message>
    <message>
        <source>Pause %1</source>
        <translation>暂停 %1</translation>
    </message>
    <message>
        <source>Pause %1 for a while</source>
        <translation>暂停 %1 一段时间</translation>
    </message>
</context>
<context>
    <name>WorkloadTemplates</name>
    <message>
        <source>Custom command</source>
        <translation>自定义命令</translation>
    </message>
    <message>
        <source>workload</source>
        <translation>工作负载</translation>
    </message>
    <message>
        <source>Any program that computes on the GPU. idlegpu starts it once its GPUs are free and stops it (SIGTERM, then SIGKILL after the stop timeout) the moment another program opens one of them. The command runs without a shell: write sh -c &apos;…&apos; for pipes, variables or ~.</source>
        <translation>任何在 GPU 上计算的程序。idlegpu 在其 GPU 空闲后启动它，并在其他程序打开其中一个 GPU 的那一刻将其停止（先 SIGTERM，停止超时后 SIGKILL）。命令不经 shell 运行：需要管道、变量或 ~ 时请写 sh -c &apos;…&apos;。</translation>
    </message>
    <message>
        <source>BOINC client</source>
        <translation>BOINC 客户端</translation>
    </message>
    <message>
        <source>The BOINC client (Debian package boinc-client). It keeps its data in the working folder: create %1 first, then attach a project with boinccmd --project_attach URL KEY, or with BOINC Manager. The package also runs a client of its own as the boinc-client service: disable it (sudo systemctl disable --now boinc-client) so that only idlegpu starts BOINC.</source>
        <translation>BOINC 客户端（Debian 软件包 boinc-client）。它将数据保存在工作文件夹中：请先创建 %1，然后使用 boinccmd --project_attach URL KEY 或 BOINC Manager 加入项目。该软件包还会以 boinc-client 服务的形式运行自己的客户端：请将其禁用（sudo systemctl disable --now boinc-client），以便只由 idlegpu 启动 BOINC。</translation>
    </message>
    <message>
        <source>Folding@home</source>
        <translation>Folding@home</translation>
    </message>
    <message>
        <source>Folding@home&apos;s client, version 8 (fah-client). It keeps its work in the working folder: create %1 first, and link the client to your account at app.foldingathome.org. Its package also installs a fah-client service: disable it (sudo systemctl disable --now fah-client) so that only idlegpu starts the client. For version 7 the command is FAHClient --user=NAME --team=0 --gpu=true.</source>
        <translation>Folding@home 客户端第 8 版（fah-client）。它将工作保存在工作文件夹中：请先创建 %1，并在 app.foldingathome.org 将客户端关联到您的账户。其软件包还会安装 fah-client 服务：请将其禁用（sudo systemctl disable --now fah-client），以便只由 idlegpu 启动客户端。第 7 版的命令是 FAHClient --user=NAME --team=0 --gpu=true。</translation>
    </message>
    <message>
        <source>Miner</source>
        <translation>矿工程序</translation>
    </message>
    <message>
        <source>A GPU miner: here lolMiner; T-Rex, NBMiner and the others take the same kind of options. Replace POOL_HOST:PORT with your pool&apos;s address, WALLET.WORKER with your wallet and a name for this computer, and ETCHASH with your coin&apos;s algorithm; Browse… picks the miner&apos;s program where it is not in PATH. A miner loses only the share it was working on when it stops, so its stop timeout is short.</source>
        <translation>GPU 矿工程序：此处为 lolMiner；T-Rex、NBMiner 等使用同类选项。将 POOL_HOST:PORT 替换为矿池地址，将 WALLET.WORKER 替换为您的钱包和这台计算机的名称，将 ETCHASH 替换为您的币种算法；矿工程序不在 PATH 中时，可用“浏览…”选择其程序。矿工程序停止时只会丢失正在计算的份额，因此其停止超时较短。</translation>
    </message>
    <message>
        <source>Batch script</source>
        <translation>批处理脚本</translation>
    </message>
    <message>
        <source>Your own script, run by bash: write in %1 whatever should run while the GPUs are idle (in the script, pipes, variables and loops work as in a terminal). CUDA_VISIBLE_DEVICES names the GPUs it may use. When a GPU is needed it gets SIGTERM: trap it to save your progress, or let it end; every process it started is stopped with it.</source>
        <translation>您自己的脚本，由 bash 运行：在 %1 中写入 GPU 空闲时应运行的内容（脚本中的管道、变量和循环与终端中一样有效）。CUDA_VISIBLE_DEVICES 指明它可以使用的 GPU。需要 GPU 时它会收到 SIGTERM：可捕获该信号以保存进度，或任其结束；它启动的每个进程都会随之停止。</translation>
    </message>
    <message>
        <source>Test workload (only waits)</source>
        <translation>测试工作负载（仅等待）</translation>
    </message>
    <message>
        <source>A harmless workload that only waits, to see idlegpu at work: it starts once its GPUs are free, writes a line to idlegpu&apos;s log, and stops the moment a program opens one of them, for instance a CUDA job such as python3 -c &apos;import torch; torch.ones(1).cuda(); input()&apos; (nvidia-smi is ignored by default).</source>
        <translation>一个只会等待的无害工作负载，用于观察 idlegpu 的工作：它在其 GPU 空闲后启动，在 idlegpu 的日志中写入一行，并在某个程序打开其中一个 GPU 的那一刻停止，例如 CUDA 作业 python3 -c &apos;import torch; torch.ones(1).cuda(); input()&apos;（默认忽略 nvidia-smi）。</translation>
    </message>
    <message>
        <source>BOINC (control the running client)</source>
        <translation>BOINC（控制正在运行的客户端）</translation>
    </message>
    <message>
        <source>Leaves the BOINC client of the boinc-client service running and only tells it when it may use the GPUs: boinccmd --set_gpu_mode auto lends them, never takes them back. The mode is global to all of BOINC&apos;s GPUs, so keep GPUs at all (or every GPU BOINC may use). Service programs: the client&apos;s name, boinc; add the names of your projects&apos; GPU applications (ps shows them while they compute), or a paused one that stays in memory counts as another program. boinccmd must reach the client: run idlegpu as a user that can read /var/lib/boinc-client/gui_rpc_auth.cfg (in the group boinc).</source>
        <translation>让 boinc-client 服务的 BOINC 客户端保持运行，只告诉它何时可以使用 GPU：boinccmd --set_gpu_mode auto 将 GPU 借给它，never 将其收回。该模式对 BOINC 的所有 GPU 全局生效，因此 GPU 请保持为全部（或 BOINC 可能使用的每块 GPU）。服务程序：客户端的名称 boinc；请添加您的项目的 GPU 应用程序名称（计算时可用 ps 查看），否则暂停后仍驻留内存的应用程序会被算作其他程序。boinccmd 必须能连接到客户端：请以能读取 /var/lib/boinc-client/gui_rpc_auth.cfg 的用户（属于 boinc 组）运行 idlegpu。</translation>
    </message>
</context>
<context>
    <name>WorkloadsSettingsPage</name>
    <message>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <source>Duplicate</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Up</source>
        <translation>上移</translation>
    </message>
    <message>
        <source>Down</source>
        <translation>下移</translation>
    </message>
    <message>
        <source>The name the tray and the status window show.</source>
        <translation>托盘和状态窗口显示的名称。</translation>
    </message>
    <message>
        <source>Name:</source>
        <translation>名称：</translation>
    </message>
    <message>
        <source>Split into words like a shell does (quotes, backslashes), but no shell runs: write sh -c &apos;…&apos; for pipes or variables.</source>
        <translation>像 shell 一样拆分为单词（引号、反斜杠），但不会运行 shell：需要管道或变量时请写 sh -c &apos;…&apos;。</translation>
    </message>
    <message>
        <source>%1, or %2 and %3</source>
        <translation>%1，或 %2 和 %3</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>Command:</source>
        <translation>命令：</translation>
    </message>
    <message>
        <source>Runs when the service may use the GPUs; it must exit with 0 once the service computes. It is split into words like the command; no shell runs.</source>
        <translation>在服务可以使用 GPU 时运行；服务开始计算后它必须以 0 退出。它像命令一样拆分成单词，不经过 shell。</translation>
    </message>
    <message>
        <source>Runs the moment another program opens one of the GPUs; it must exit with 0 once the service has left them. While it fails, the GPUs stay the service&apos;s and idlegpu tries again.</source>
        <translation>在其他程序打开其中一个 GPU 时立即运行；服务离开 GPU 后它必须以 0 退出。它失败期间，GPU 仍归服务使用，idlegpu 会重试。</translation>
    </message>
    <message>
        <source>Command timeout:</source>
        <translation>命令超时：</translation>
    </message>
    <message>
        <source>The service&apos;s own programs, separated by commas (whole names, as in the ignored programs of a GPU group): they never count as another program on this workload&apos;s GPUs.</source>
        <translation>服务自己的程序，用逗号分隔（完整名称，与 GPU 组的忽略程序相同）：它们在此工作负载的 GPU 上从不算作其他程序。</translation>
    </message>
    <message>
        <source>You</source>
        <translation>你</translation>
    </message>
    <message>
        <source>Run as user:</source>
        <translation>运行用户：</translation>
    </message>
    <message>
        <source>Home folder</source>
        <translation>主文件夹</translation>
    </message>
    <message>
        <source>The folder the command starts in.</source>
        <translation>命令启动时所在的文件夹。</translation>
    </message>
    <message>
        <source>Working folder:</source>
        <translation>工作文件夹：</translation>
    </message>
    <message>
        <source>The GPUs the workload runs on; it starts when all of them are free.</source>
        <translation>工作负载运行的 GPU；它们全部空闲时才会启动。</translation>
    </message>
    <message>
        <source>GPUs:</source>
        <translation>GPU：</translation>
    </message>
    <message>
        <source>idlegpu&apos;s own log</source>
        <translation>idlegpu 自己的日志</translation>
    </message>
    <message>
        <source>Where the workload&apos;s output goes.</source>
        <translation>工作负载输出写入的位置。</translation>
    </message>
    <message>
        <source>Log file:</source>
        <translation>日志文件：</translation>
    </message>
    <message>
        <source>Variable</source>
        <translation>变量</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>Variables set for the workload, on top of idlegpu&apos;s own environment.</source>
        <translation>在 idlegpu 自身环境之上为工作负载设置的变量。</translation>
    </message>
    <message>
        <source>No variables of its own: the workload gets idlegpu&apos;s environment, and CUDA_VISIBLE_DEVICES for its GPUs. Press Add to set one.</source>
        <translation>没有自己的变量：工作负载使用 idlegpu 的环境，以及对应其 GPU 的 CUDA_VISIBLE_DEVICES。按“添加”可设置变量。</translation>
    </message>
    <message>
        <source>Environment:</source>
        <translation>环境变量：</translation>
    </message>
    <message>
        <source>After asking the workload to stop (SIGTERM), how long to wait before killing it.</source>
        <translation>请求工作负载停止（SIGTERM）后，等待多久再强制结束它。</translation>
    </message>
    <message>
        <source>Enabled (run it when its GPUs are free)</source>
        <translation>启用（其 GPU 空闲时运行）</translation>
    </message>
    <message>
        <source>The output of a test run shows here.</source>
        <translation>试运行的输出显示在这里。</translation>
    </message>
    <message>
        <source>%1 (disabled)</source>
        <translation>%1（已停用）</translation>
    </message>
    <message>
        <source>— stopped —</source>
        <translation>— 已停止 —</translation>
    </message>
    <message>
        <source>%1 (copy)</source>
        <translation>%1（副本）</translation>
    </message>
    <message>
        <source>Choose the program to run</source>
        <translation>选择要运行的程序</translation>
    </message>
    <message>
        <source>Choose the working folder</source>
        <translation>选择工作文件夹</translation>
    </message>
    <message>
        <source>Choose the log file</source>
        <translation>选择日志文件</translation>
    </message>
    <message>
        <source>Idle: only CPU time nobody else wants (default)</source>
        <translation>空闲：只用其他程序不用的 CPU 时间（默认）</translation>
    </message>
    <message>
        <source>Low (nice 10)</source>
        <translation>低（nice 10）</translation>
    </message>
    <message>
        <source>Normal, as idlegpu&apos;s own</source>
        <translation>正常，与 idlegpu 自身相同</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>No workloads yet. Until you add one, idlegpu only watches the GPUs. Press Add to run a command or a ready-made example.</source>
        <translation>还没有工作负载。添加之前，idlegpu 只监视 GPU。按“添加”可运行一个命令或现成的示例。</translation>
    </message>
    <message>
        <source>A GPU runs one workload at a time. When several want the same GPU, workloads on all GPUs go first, then the others in the order of this list. A running workload is never stopped to make way for another.</source>
        <translation>一个 GPU 同一时间只运行一个工作负载。多个工作负载需要同一个 GPU 时，使用所有 GPU 的工作负载优先，其余按此列表的顺序。正在运行的工作负载从不会为其他工作负载让路而停止。</translation>
    </message>
    <message>
        <source>Stop timeout:</source>
        <translation>停止超时：</translation>
    </message>
    <message>
        <source>How the workload&apos;s processes share the CPU with your programs. Idle (SCHED_IDLE, nice 19, idle I/O) keeps its CPU threads from ever slowing the desktop or your jobs.</source>
        <translation>工作负载的进程如何与您的程序共享 CPU。“空闲”（SCHED_IDLE、nice 19、空闲 I/O）确保其 CPU 线程永远不会拖慢桌面或您的作业。</translation>
    </message>
    <message>
        <source>CPU priority:</source>
        <translation>CPU 优先级：</translation>
    </message>
    <message>
        <source>root (idlegpu runs as root): enter a user to drop root</source>
        <translation>root（idlegpu 以 root 运行）：输入用户以放弃 root 权限</translation>
    </message>
    <message>
        <source>The login name (or uid) the workload runs as. Only an idlegpu running as root can run workloads as other users; without one, a workload of a root idlegpu runs as root.</source>
        <translation>工作负载运行所用的登录名（或 uid）。只有以 root 运行的 idlegpu 才能以其他用户身份运行工作负载；未指定时，root 运行的 idlegpu 的工作负载以 root 身份运行。</translation>
    </message>
    <message>
        <source>Runs a command</source>
        <translation>运行命令</translation>
    </message>
    <message>
        <source>Controls a service</source>
        <translation>控制服务</translation>
    </message>
    <message>
        <source>Runs a command: idlegpu starts it when its GPUs are free and ends it when another program opens one. Controls a service: a program that runs all the time and pauses itself on request (BOINC, Folding@home); idlegpu runs one command to let it use the GPUs and another to make it leave them.</source>
        <translation>运行命令：idlegpu 在其 GPU 空闲时启动它，并在其他程序打开其中一个 GPU 时结束它。控制服务：一个始终运行、可按请求自行暂停的程序（BOINC、Folding@home）；idlegpu 运行一条命令让它使用 GPU，运行另一条命令让它让出 GPU。</translation>
    </message>
    <message>
        <source>Kind:</source>
        <translation>类型：</translation>
    </message>
    <message>
        <source>Start command:</source>
        <translation>启动命令：</translation>
    </message>
    <message>
        <source>Stop command:</source>
        <translation>停止命令：</translation>
    </message>
    <message>
        <source>How long the start or stop command may take before it is killed and counted as failed.</source>
        <translation>启动或停止命令在被终止并计为失败之前可以运行的时长。</translation>
    </message>
    <message>
        <source>None</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Service programs:</source>
        <translation>服务程序：</translation>
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
        <source>idlegpu is already running: %1; not starting a second one.</source>
        <translation>idlegpu 已在运行：%1；不会启动第二个实例。</translation>
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
        <source>Print each GPU, who holds it and what runs, as the running idlegpu service sees it (the system bus&apos;s, else the session bus&apos;s), or as a look of its own finds it where none answers; then exit.</source>
        <translation>打印每个 GPU、其占用者以及正在运行的任务：取自正在运行的 idlegpu 服务（先系统总线，后会话总线），没有服务应答时则自行查看；然后退出。</translation>
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
        <source>Processes of other users that could not be inspected: %1. idlegpu still notices when they open a GPU, but not who they are (run as root to see them).</source>
        <translation>无法检查的其他用户进程：%1 个。idlegpu 仍能察觉它们打开 GPU，但无法得知它们是谁（以 root 身份运行即可看到）。</translation>
    </message>
    <message>
        <source>Open the settings dialog on the configuration file (a running idlegpu applies what you save at once).</source>
        <translation>打开配置文件的设置对话框（正在运行的 idlegpu 会立即应用您保存的内容）。</translation>
    </message>
    <message>
        <source>%1 need a desktop (no DISPLAY or WAYLAND_DISPLAY is set).</source>
        <translation>%1 需要桌面环境（未设置 DISPLAY 或 WAYLAND_DISPLAY）。</translation>
    </message>
    <message>
        <source>No configuration file: %1 does not exist, nor does gpu_mon&apos;s %2.</source>
        <translation>没有配置文件：%1 不存在，gpu_mon 的 %2 也不存在。</translation>
    </message>
    <message>
        <source>idlegpu is not set up yet: %1 does not exist.</source>
        <translation>idlegpu 尚未设置：%1 不存在。</translation>
    </message>
    <message>
        <source>(does not exist: idlegpu is not set up yet)</source>
        <translation>（不存在：idlegpu 尚未设置）</translation>
    </message>
    <message>
        <source>No workloads configured.</source>
        <translation>未配置工作负载。</translation>
    </message>
    <message>
        <source>Add one with idlegpu --settings, or as a [process-NAME] section in %1.</source>
        <translation>可使用 idlegpu --settings 添加，或在 %1 中添加 [process-NAME] 节。</translation>
    </message>
    <message>
        <source>To set idlegpu up, either:
  - on the desktop, run idlegpu --settings (or click the idlegpu icon in the tray), choose a workload and save; or
  - copy the example and edit it:
        mkdir -p %1
        cp %2 %3
    then check it with idlegpu --check-config.
</source>
        <translation>要设置 idlegpu，可以：
  - 在桌面上运行 idlegpu --settings（或点击托盘中的 idlegpu 图标），选择一个工作负载并保存；或
  - 复制示例并编辑：
        mkdir -p %1
        cp %2 %3
    然后用 idlegpu --check-config 检查。
</translation>
    </message>
    <message>
        <source>Print the lines of slurm.conf and gres.conf that lend this computer&apos;s GPUs to a Slurm queue ([slurm] in the configuration), for the cluster&apos;s admin to paste; then exit.</source>
        <translation>打印将本机 GPU 借给 Slurm 队列（配置中的 [slurm]）所需的 slurm.conf 和 gres.conf 行，供集群管理员粘贴；然后退出。</translation>
    </message>
    <message>
        <source>Choose one of %1.</source>
        <translation>请从 %1 中选择一个。</translation>
    </message>
    <message>
        <source>%1 and %2</source>
        <translation>%1 和 %2</translation>
    </message>
    <message>
        <source>, </source>
        <translation>、</translation>
    </message>
    <message>
        <source>Slurm&apos;s Prolog (also as the link idlegpu-slurm-prolog): exit 0 to let the job run, or to send it back to the queue while idlegpu holds one of its GPUs or a process idlegpu did not count uses one; drain the node and exit 1 while idlegpu is not running.</source>
        <translation>Slurm 的 Prolog（也可通过链接 idlegpu-slurm-prolog 调用）：退出码 0 表示允许作业运行，或在 idlegpu 为其所有者保留该作业的某个 GPU、或有 idlegpu 未计入的进程正在使用该 GPU 时将作业送回队列；当 idlegpu 未运行时，将节点置为 drain 并以 1 退出。</translation>
    </message>
    <message>
        <source>Slurm&apos;s HealthCheckProgram (also as the link idlegpu-slurm-health): drain the node while idlegpu is not running; exit 0.</source>
        <translation>Slurm 的 HealthCheckProgram（也可通过链接 idlegpu-slurm-health 调用）：idlegpu 未运行时将节点置为 drain；以 0 退出。</translation>
    </message>
    <message>
        <source>Cannot drain node %1: %2</source>
        <translation>无法将节点 %1 置为 drain：%2</translation>
    </message>
    <message>
        <source>Usage: idlegpu-slurm-guard --slurm-prolog | --slurm-health. Slurm runs it through the links idlegpu-slurm-prolog and idlegpu-slurm-health, without arguments.</source>
        <translation>用法：idlegpu-slurm-guard --slurm-prolog | --slurm-health。Slurm 通过链接 idlegpu-slurm-prolog 和 idlegpu-slurm-health 不带参数地运行它。</translation>
    </message>
    <message>
        <source>Job %1 requeued.</source>
        <translation>作业 %1 已重新排队。</translation>
    </message>
    <message>
        <source>Job %1 cannot be requeued (%2): cancelled.</source>
        <translation>作业 %1 无法重新排队（%2）：已取消。</translation>
    </message>
    <message>
        <source>Slurm unreachable: %1</source>
        <translation>无法连接 Slurm：%1</translation>
    </message>
    <message>
        <source>held for you</source>
        <translation>为您保留</translation>
    </message>
    <message>
        <source>lent to the lab (no job yet)</source>
        <translation>已借给实验室（尚无作业）</translation>
    </message>
    <message>
        <source>job %1 (%2)</source>
        <translation>作业 %1（%2）</translation>
    </message>
    <message>
        <source>lent to the lab: %1</source>
        <translation>已借给实验室：%1</translation>
    </message>
    <message>
        <source>Ask the running idlegpu service to pause every workload, or the workload WORKLOAD (its id, process-miner, or its name, miner); until resumed, or for --for&apos;s DURATION. polkit decides who may.</source>
        <translation>请正在运行的 idlegpu 服务暂停所有工作负载，或暂停工作负载 WORKLOAD（其 ID，如 process-miner，或其名称，如 miner）；直到恢复，或持续 --for 的 DURATION。由 polkit 决定谁可以这样做。</translation>
    </message>
    <message>
        <source>With --pause: for how long: 90s, 30m, 1h, 2h30m, 1d (at most 30 days).</source>
        <translation>与 --pause 一起使用：暂停多久：90s、30m、1h、2h30m、1d（最多 30 天）。</translation>
    </message>
    <message>
        <source>DURATION</source>
        <translation>DURATION</translation>
    </message>
    <message>
        <source>Ask the running idlegpu service to resume every workload (ending every pause), or the workload WORKLOAD.</source>
        <translation>请正在运行的 idlegpu 服务恢复所有工作负载（结束所有暂停），或恢复工作负载 WORKLOAD。</translation>
    </message>
    <message>
        <source>With --pause or --resume: the workload to pause or resume (all without).</source>
        <translation>与 --pause 或 --resume 一起使用：要暂停或恢复的工作负载（省略则为全部）。</translation>
    </message>
    <message>
        <source>Name one workload, or none for all: %1.</source>
        <translation>请只指定一个工作负载，或不指定以表示全部：%1。</translation>
    </message>
    <message>
        <source>Unexpected argument: %1 (only --pause and --resume take a workload).</source>
        <translation>意外的参数：%1（只有 --pause 和 --resume 接受工作负载）。</translation>
    </message>
    <message>
        <source>A workload&apos;s id or name has at most %1 bytes.</source>
        <translation>工作负载的 ID 或名称最多 %1 字节。</translation>
    </message>
    <message>
        <source>--pause and --resume act on the running idlegpu service, which has its own configuration: leave out --config.</source>
        <translation>--pause 和 --resume 作用于正在运行的 idlegpu 服务，它有自己的配置：请去掉 --config。</translation>
    </message>
    <message>
        <source>--for goes with --pause.</source>
        <translation>--for 须与 --pause 一起使用。</translation>
    </message>
    <message>
        <source>--for %1: a pause lasts at most 30 days (30d).</source>
        <translation>--for %1：暂停最多持续 30 天（30d）。</translation>
    </message>
    <message>
        <source>the system bus</source>
        <translation>系统总线</translation>
    </message>
    <message>
        <source>your session bus</source>
        <translation>您的会话总线</translation>
    </message>
    <message>
        <source>Passed over the idlegpu service on %1: it runs as uid %2, not as %3.</source>
        <translation>已跳过%1上的 idlegpu 服务：它以 uid %2 运行，而不是 %3。</translation>
    </message>
    <message>
        <source>an answer of the signature &quot;%1&quot;, not &quot;ts&quot;</source>
        <translation>签名为“%1”而不是“ts”的应答</translation>
    </message>
    <message>
        <source>JSON that does not read: %1</source>
        <translation>无法读取的 JSON：%1</translation>
    </message>
    <message>
        <source>the idlegpu service on %1</source>
        <translation>%1上的 idlegpu 服务</translation>
    </message>
    <message>
        <source>Not authorized: %1</source>
        <translation>未获授权：%1</translation>
    </message>
    <message>
        <source>Not authorized without a password, and idlegpu cannot ask for one here (%1). Run it on a terminal, or ask the administrator for a polkit rule that allows it (README, &quot;System-wide&quot;).</source>
        <translation>没有密码则未获授权，而 idlegpu 无法在此询问密码（%1）。请在终端中运行，或请管理员添加允许此操作的 polkit 规则（README，“System-wide”）。</translation>
    </message>
    <message>
        <source>Cancelled: the authentication was dismissed.</source>
        <translation>已取消：身份验证被关闭。</translation>
    </message>
    <message>
        <source>No such workload: %1</source>
        <translation>没有这个工作负载：%1</translation>
    </message>
    <message>
        <source>Refused for now: your user sent the service too many calls (%1). Try again in a moment.</source>
        <translation>暂时被拒绝：您的用户向服务发送了过多调用（%1）。请稍后再试。</translation>
    </message>
    <message>
        <source>The service is busy with other authorizations (%1). Try again in a moment.</source>
        <translation>服务正忙于其他授权（%1）。请稍后再试。</translation>
    </message>
    <message>
        <source>polkit does not answer, so the service cannot tell whether you may (%1). Is polkitd installed and running?</source>
        <translation>polkit 没有应答，服务无法判断您是否可以这样做（%1）。polkitd 是否已安装并在运行？</translation>
    </message>
    <message>
        <source>The service refused the request: %1</source>
        <translation>服务拒绝了请求：%1</translation>
    </message>
    <message>
        <source>%1 did not answer in time.</source>
        <translation>%1没有及时应答。</translation>
    </message>
    <message>
        <source>The bus did not let the call through: %1</source>
        <translation>总线没有放行此调用：%1</translation>
    </message>
    <message>
        <source>The call failed: %1 (%2)</source>
        <translation>调用失败：%1（%2）</translation>
    </message>
    <message>
        <source>No idlegpu service answers, on the system bus or on your session bus. Start one: the system service with `%1systemctl enable --now idlegpu`, or your own with `idlegpu --headless`.</source>
        <translation>系统总线和您的会话总线上都没有 idlegpu 服务应答。请启动一个：系统服务用 `%1systemctl enable --now idlegpu`，您自己的用 `idlegpu --headless`。</translation>
    </message>
    <message>
        <source>every workload</source>
        <translation>所有工作负载</translation>
    </message>
    <message>
        <source>%1 did not say which workloads it has: %2</source>
        <translation>%1没有说明它有哪些工作负载：%2</translation>
    </message>
    <message>
        <source>%1 did not give its state: %2</source>
        <translation>%1没有给出其状态：%2</translation>
    </message>
    <message>
        <source>From a look at this computer with the configuration given (a running idlegpu service has its own).</source>
        <translation>来自对本机的查看，使用所给的配置（正在运行的 idlegpu 服务有自己的配置）。</translation>
    </message>
    <message>
        <source>From a look at this computer: no idlegpu service answers.</source>
        <translation>来自对本机的查看：没有 idlegpu 服务应答。</translation>
    </message>
    <message>
        <source>From %1.</source>
        <translation>来自%1。</translation>
    </message>
    <message>
        <source>Paused: every workload, until resumed</source>
        <translation>已暂停：所有工作负载，直到恢复</translation>
    </message>
    <message>
        <source>Paused: every workload, until %1</source>
        <translation>已暂停：所有工作负载，直到 %1</translation>
    </message>
    <message>
        <source>paused until resumed</source>
        <translation>已暂停，直到恢复</translation>
    </message>
    <message>
        <source>paused until %1</source>
        <translation>已暂停，直到 %1</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is the name of %2 workloads (%3): give the id.</source>
        <translation>“%1”是 %2 个工作负载的名称（%3）：请给出 ID。</translation>
    </message>
    <message>
        <source>No workload &quot;%1&quot;: the idlegpu service has no workloads.</source>
        <translation>没有工作负载“%1”：idlegpu 服务没有任何工作负载。</translation>
    </message>
    <message>
        <source>No workload &quot;%1&quot;: the idlegpu service has %2.</source>
        <translation>没有工作负载“%1”：idlegpu 服务有 %2。</translation>
    </message>
    <message>
        <source>Paused %1 of %2 for %3.</source>
        <translation>已暂停%2的%1，持续 %3。</translation>
    </message>
    <message>
        <source>Paused %1 of %2 until resumed.</source>
        <translation>已暂停%2的%1，直到恢复。</translation>
    </message>
    <message>
        <source>Resumed %1 of %2.</source>
        <translation>已恢复%2的%1。</translation>
    </message>
    <message>
        <source>%1: one workload would not start (see the errors above); the rest of the configuration would be used.</source>
        <translation>%1：有一个工作负载无法启动（见上方错误）；其余配置仍会使用。</translation>
    </message>
    <message numerus="yes">
        <source>%1: %n workloads would not start (see the errors above); the rest of the configuration would be used.</source>
        <translation>
            <numerusform>%1：有 %n 个工作负载无法启动（见上方错误）；其余配置仍会使用。</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: the configuration has errors, so no workload would run; run idlegpu --check-config.</source>
        <translation>%1：配置有错误，因此不会运行任何工作负载；请运行 idlegpu --check-config。</translation>
    </message>
    <message>
        <source>%1: option &apos;%2&apos; requires an argument</source>
        <translation>%1：选项“%2”需要一个参数</translation>
    </message>
    <message>
        <source>%1: invalid option -- &apos;%2&apos;</source>
        <translation>%1：无效的选项 -- “%2”</translation>
    </message>
    <message>
        <source>%1: unrecognized option &apos;--%2&apos;</source>
        <translation>%1：无法识别的选项“--%2”</translation>
    </message>
    <message>
        <source>Did you mean &apos;--%1&apos;?</source>
        <translation>您是不是想用“--%1”？</translation>
    </message>
    <message>
        <source>Print this help and exit.</source>
        <translation>打印此帮助并退出。</translation>
    </message>
    <message>
        <source>Print the version and exit.</source>
        <translation>打印版本并退出。</translation>
    </message>
    <message>
        <source>Try &apos;%1 --help&apos; for more information.</source>
        <translation>请尝试执行“%1 --help”来获取更多信息。</translation>
    </message>
    <message>
        <source>No workload runs: the configuration has errors (idlegpu --check-config lists them).</source>
        <translation>没有工作负载运行：配置有错误（idlegpu --check-config 会列出它们）。</translation>
    </message>
</context>
</TS>
