<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_TW">
<context>
    <name>ActivitySettingsPage</name>
    <message>
        <source>While someone works in a terminal (a pseudo-terminal, such as an ssh login), idlegpu stops all workloads.</source>
        <translation>有人在終端機（偽終端機，例如 ssh 登入）中工作時，idlegpu 會停止所有工作負載。</translation>
    </message>
    <message>
        <source>Stop workloads while a user is active in a terminal</source>
        <translation>使用者在終端機中活動時停止工作負載</translation>
    </message>
    <message>
        <source>At the computer</source>
        <translation>在電腦前</translation>
    </message>
    <message>
        <source>Pause every workload while I am at the computer</source>
        <translation>我在電腦前時暫停所有工作負載</translation>
    </message>
    <message>
        <source>When this is off, only the GPUs decide. When it is on, workloads run only after nobody has used the keyboard or mouse for a while; a locked screen counts as away at once. When the desktop cannot tell, you count as present.</source>
        <translation>關閉時只由 GPU 決定。開啟時，只有在一段時間內無人使用鍵盤或滑鼠後，工作負載才會執行；鎖定螢幕立即算作離開。桌面無法判斷時，視為你在電腦前。</translation>
    </message>
    <message>
        <source>How long nobody may have touched the keyboard or mouse before you count as away.</source>
        <translation>鍵盤和滑鼠無人操作多久後算作你已離開。</translation>
    </message>
    <message>
        <source>You are away after no input for:</source>
        <translation>無輸入多久後算作離開：</translation>
    </message>
    <message>
        <source>Always</source>
        <translation>一律</translation>
    </message>
    <message>
        <source>Nights and weekends</source>
        <translation>夜間和週末</translation>
    </message>
    <message>
        <source>Nights</source>
        <translation>夜間</translation>
    </message>
    <message>
        <source>Weekends</source>
        <translation>週末</translation>
    </message>
    <message>
        <source>Schedule</source>
        <translation>排程</translation>
    </message>
    <message>
        <source>Workloads run only at these times; outside them every workload stops. Write rules separated by commas: days (Mon-Fri, Sat), times (22:00-07:00 crosses midnight) or both (Mon-Fri 18:00-08:00). Leave it empty to run at any time.</source>
        <translation>工作負載只在這些時間執行；其餘時間所有工作負載都會停止。規則之間用逗號分隔：星期（Mon-Fri、Sat）、時間（22:00-07:00 跨越午夜）或兩者（Mon-Fri 18:00-08:00）。留空則任何時間都可執行。</translation>
    </message>
    <message>
        <source>Nobody: write user names, separated by commas</source>
        <translation>無：填寫使用者名稱，以逗號分隔</translation>
    </message>
    <message>
        <source>The terminals of these users never stop a workload.</source>
        <translation>這些使用者的終端機從不會停止工作負載。</translation>
    </message>
    <message>
        <source>Users whose terminals do not count:</source>
        <translation>終端機不計入的使用者：</translation>
    </message>
    <message>
        <source>A terminal where nobody typed for this long no longer counts as active.</source>
        <translation>終端機無人輸入達到此時長後，不再算作活動。</translation>
    </message>
    <message>
        <source>A terminal counts as idle after:</source>
        <translation>終端機閒置判定時長：</translation>
    </message>
    <message>
        <source>Presets</source>
        <translation>預設集</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>Run workloads:</source>
        <translation>執行工作負載：</translation>
    </message>
    <message>
        <source>Terminals</source>
        <translation>終端機</translation>
    </message>
    <message>
        <source>Now inside the schedule: workloads may run until %1.</source>
        <translation>目前在排程內：工作負載可執行至 %1。</translation>
    </message>
    <message>
        <source>Now inside the schedule, at every hour of the week.</source>
        <translation>目前在排程內，且一週中每個小時都在其中。</translation>
    </message>
    <message>
        <source>Now outside the schedule: workloads wait until %1.</source>
        <translation>目前在排程外：工作負載等待至 %1。</translation>
    </message>
    <message>
        <source>Workloads never run on this schedule.</source>
        <translation>依此排程，工作負載永遠不會執行。</translation>
    </message>
</context>
<context>
    <name>Autostart</name>
    <message>
        <source>Cannot remove %1</source>
        <translation>無法刪除 %1</translation>
    </message>
    <message>
        <source>Cannot create the folder %1</source>
        <translation>無法建立資料夾 %1</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>無法寫入 %1：%2</translation>
    </message>
</context>
<context>
    <name>ConfigBanner</name>
    <message>
        <source>Fix in Settings…</source>
        <translation>在設定中修正…</translation>
    </message>
    <message>
        <source>Line %1: %2</source>
        <translation>第 %1 行：%2</translation>
    </message>
    <message>
        <source>The configuration has 1 problem.</source>
        <translation>設定中有 1 個問題。</translation>
    </message>
    <message>
        <source>The configuration has %1 problems.</source>
        <translation>設定中有 %1 個問題。</translation>
    </message>
    <message>
        <source>%1 It was not applied: idlegpu goes on with the last good one.</source>
        <translation>%1 該設定未被套用：idlegpu 繼續使用上一份正確的設定。</translation>
    </message>
</context>
<context>
    <name>DashboardText</name>
    <message>
        <source>%1 GPU-h</source>
        <translation>%1 GPU·小時</translation>
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
        <translation>視訊記憶體</translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation>溫度</translation>
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
        <translation>工作負載</translation>
    </message>
    <message>
        <source>your jobs</source>
        <translation>您的作業</translation>
    </message>
    <message>
        <source>idle</source>
        <translation>閒置</translation>
    </message>
    <message>
        <source>not watched</source>
        <translation>未監視</translation>
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
        <translation>GPU 閒置後立即重新啟動</translation>
    </message>
    <message>
        <source>starts again %1 after the GPU is free</source>
        <translation>GPU 閒置 %1 後重新啟動</translation>
    </message>
    <message>
        <source>starts again at %1</source>
        <translation>將於 %1 重新啟動</translation>
    </message>
    <message>
        <source>does not start again for now (%1)</source>
        <translation>暫不重新啟動（%1）</translation>
    </message>
    <message>
        <source>running again</source>
        <translation>已重新執行</translation>
    </message>
    <message>
        <source>the workload</source>
        <translation>工作負載</translation>
    </message>
    <message>
        <source>Stopped %1 at %2 for %3</source>
        <translation>於 %2 為 %3 停止了 %1</translation>
    </message>
    <message>
        <source>%1, %2 after its open</source>
        <translation>%1，在其開啟 GPU 後 %2</translation>
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
        <translation>已暫停，直到 %1</translation>
    </message>
    <message>
        <source>Paused</source>
        <translation>已暫停</translation>
    </message>
    <message>
        <source>Paused with all workloads until %1</source>
        <translation>隨所有工作負載暫停，直到 %1</translation>
    </message>
    <message>
        <source>Paused with all workloads</source>
        <translation>隨所有工作負載暫停</translation>
    </message>
    <message>
        <source>Running on %1</source>
        <translation>正在 %1 上執行</translation>
    </message>
    <message>
        <source>Running on %1 since %2</source>
        <translation>自 %2 起在 %1 上執行</translation>
    </message>
    <message>
        <source>Stopping</source>
        <translation>正在停止</translation>
    </message>
    <message>
        <source>Failing; tries again at %1</source>
        <translation>執行失敗；將於 %1 重試</translation>
    </message>
    <message>
        <source>Failing (%1); tries again at %2</source>
        <translation>執行失敗（%1）；將於 %2 重試</translation>
    </message>
    <message>
        <source>Failed to stop, its GPUs stay lent; tries again at %1</source>
        <translation>停止失敗，其 GPU 仍被佔用；將於 %1 重試</translation>
    </message>
    <message>
        <source>Waiting: its GPU %1 is not on this machine — choose another GPU in Settings</source>
        <translation>等待中：它的 GPU %1 不在這台機器上 — 請在設定中選擇其他 GPU</translation>
    </message>
    <message>
        <source>Waiting: its GPUs (%1) are not on this machine — choose other GPUs in Settings</source>
        <translation>等待中：它的 GPU（%1）不在這台機器上 — 請在設定中選擇其他 GPU</translation>
    </message>
    <message>
        <source>Waiting: there is no GPU on this machine yet</source>
        <translation>等待中：這台機器上還沒有 GPU</translation>
    </message>
    <message>
        <source>Off — turn it on in Settings</source>
        <translation>已關閉 — 可在設定中開啟</translation>
    </message>
    <message>
        <source>Waiting: %1</source>
        <translation>等待中：%1</translation>
    </message>
    <message>
        <source>Starting</source>
        <translation>正在啟動</translation>
    </message>
</context>
<context>
    <name>DesktopNotificationSink</name>
    <message>
        <source>Show</source>
        <translation>顯示</translation>
    </message>
    <message>
        <source>Pause for 1 hour</source>
        <translation>暫停 1 小時</translation>
    </message>
</context>
<context>
    <name>DraftRules</name>
    <message>
        <source>Enter a whole number of seconds from %1 to %2.</source>
        <translation>請輸入 %1 到 %2 之間的整數秒數。</translation>
    </message>
    <message>
        <source>Choose at least one GPU, or All GPUs.</source>
        <translation>請至少選擇一個 GPU，或選擇所有 GPU。</translation>
    </message>
    <message>
        <source>No GPU is detected right now: GPU %1 cannot be checked.</source>
        <translation>目前未偵測到任何 GPU：無法檢查 GPU %1。</translation>
    </message>
    <message>
        <source>GPU %1 is not present.</source>
        <translation>GPU %1 不存在。</translation>
    </message>
    <message>
        <source>“%1” cannot be a program name: no commas, no spaces around it.</source>
        <translation>「%1」不能作為程式名稱：不能含逗號，前後不能有空格。</translation>
    </message>
    <message>
        <source>Enter a name.</source>
        <translation>請輸入名稱。</translation>
    </message>
    <message>
        <source>Another workload is already named “%1”.</source>
        <translation>已有另一個工作負載名為「%1」。</translation>
    </message>
    <message>
        <source>“%1”</source>
        <translation>「%1」</translation>
    </message>
    <message>
        <source>%1 goes first on a GPU this workload also uses: this one waits while it runs there.</source>
        <translation>%1 在本工作負載也使用的 GPU 上優先：它在那裡執行時，本工作負載等待。</translation>
    </message>
    <message>
        <source>%1 go first on GPUs this workload also uses: this one waits while they run there.</source>
        <translation>%1 在本工作負載也使用的 GPU 上優先：它們在那裡執行時，本工作負載等待。</translation>
    </message>
    <message>
        <source>%1 also uses one of its GPUs and waits while this one runs there.</source>
        <translation>%1 也使用其中一個 GPU，本工作負載在那裡執行時它會等待。</translation>
    </message>
    <message>
        <source>%1 also use its GPUs and wait while this one runs there.</source>
        <translation>%1 也使用這些 GPU，本工作負載在那裡執行時它們會等待。</translation>
    </message>
    <message>
        <source>The folder “%1” does not exist.</source>
        <translation>資料夾「%1」不存在。</translation>
    </message>
    <message>
        <source>Enter the command to run.</source>
        <translation>請輸入要執行的指令。</translation>
    </message>
    <message>
        <source>The command cannot be split into words: %1.</source>
        <translation>無法將指令拆分為單字：%1。</translation>
    </message>
    <message>
        <source>The command names no program.</source>
        <translation>指令中沒有程式名稱。</translation>
    </message>
    <message>
        <source>“%1” is a folder, not a file.</source>
        <translation>「%1」是資料夾，不是檔案。</translation>
    </message>
    <message>
        <source>Row %1: “%2” is not a variable name (letters, digits and _, not starting with a digit).</source>
        <translation>第 %1 列：「%2」不是變數名稱（字母、數字和 _，不能以數字開頭）。</translation>
    </message>
    <message>
        <source>Row %1: a value cannot hold a line break.</source>
        <translation>第 %1 列：值中不能包含換行。</translation>
    </message>
    <message>
        <source>There is no user “%1”.</source>
        <translation>不存在使用者「%1」。</translation>
    </message>
    <message>
        <source>Only root can run a workload as another user (“%1”).</source>
        <translation>只有 root 才能以其他使用者（「%1」）執行工作負載。</translation>
    </message>
    <message>
        <source>This workload runs as root, with every privilege.</source>
        <translation>此工作負載以 root 身分執行，擁有全部權限。</translation>
    </message>
    <message>
        <source>Not a schedule: %1.</source>
        <translation>不是有效的排程：%1。</translation>
    </message>
    <message>
        <source>idlegpu runs as root, so without a user this workload runs as root, with every privilege (as gpu_mon ran it): enter a user to run it as that user.</source>
        <translation>idlegpu 以 root 執行，因此未指定使用者時此工作負載將以 root 身份執行，擁有全部許可權（與 gpu_mon 的做法相同）：輸入一個使用者即可以該使用者身份執行。</translation>
    </message>
    <message>
        <source>Enter the command that lets the service use the GPUs.</source>
        <translation>請輸入允許該服務使用 GPU 的命令。</translation>
    </message>
    <message>
        <source>Enter the command that makes the service leave the GPUs.</source>
        <translation>請輸入讓該服務讓出 GPU 的命令。</translation>
    </message>
    <message>
        <source>The workload&apos;s user cannot enter the folder “%1”.</source>
        <translation>工作負載的使用者無法進入資料夾「%1」。</translation>
    </message>
    <message>
        <source>The program “%1” does not exist yet: the workload cannot start until it does.</source>
        <translation>程式「%1」尚不存在：在它出現之前，工作負載無法啟動。</translation>
    </message>
    <message>
        <source>The program “%1” is not found in the workload&apos;s PATH: the workload cannot start until it is there.</source>
        <translation>在工作負載的 PATH 中找不到程式「%1」：在它出現在那裡之前，工作負載無法啟動。</translation>
    </message>
    <message>
        <source>“%1” is not a program the workload&apos;s user can run.</source>
        <translation>「%1」不是工作負載的使用者可以執行的程式。</translation>
    </message>
    <message>
        <source>The log file “%1” is not writable for the workload&apos;s user.</source>
        <translation>工作負載的使用者無法寫入記錄檔「%1」。</translation>
    </message>
    <message>
        <source>The workload&apos;s user cannot create a file in the folder “%1”.</source>
        <translation>工作負載的使用者無法在資料夾「%1」中建立檔案。</translation>
    </message>
</context>
<context>
    <name>GeneralSettingsPage</name>
    <message>
        <source>How long a GPU must stay free before a workload starts on it.</source>
        <translation>GPU 需要閒置多久才會在其上啟動工作負載。</translation>
    </message>
    <message>
        <source>How often idlegpu looks at the GPUs when nothing happens. A program that opens a GPU is noticed at once anyway.</source>
        <translation>沒有動靜時 idlegpu 多久查看一次 GPU。程式開啟 GPU 時總會立即察覺。</translation>
    </message>
    <message>
        <source>Check the GPUs every:</source>
        <translation>檢查 GPU 的間隔：</translation>
    </message>
    <message>
        <source>Start a workload after the GPU is free for:</source>
        <translation>GPU 閒置多久後啟動工作負載：</translation>
    </message>
    <message>
        <source>A workload was stopped because a program opened its GPU</source>
        <translation>某個程式開啟了工作負載的 GPU，工作負載因此被停止</translation>
    </message>
    <message>
        <source>A workload keeps failing</source>
        <translation>工作負載反覆失敗</translation>
    </message>
    <message>
        <source>The configuration file has an error</source>
        <translation>設定檔有錯誤</translation>
    </message>
    <message>
        <source>Notify me when:</source>
        <translation>在以下情況通知我：</translation>
    </message>
    <message>
        <source>Start idlegpu when I log in</source>
        <translation>登入時啟動 idlegpu</translation>
    </message>
    <message>
        <source>Not a key of the configuration file: idlegpu adds or removes its entry in ~/.config/autostart.</source>
        <translation>這不是設定檔中的鍵：idlegpu 會在 ~/.config/autostart 中新增或移除自己的項目。</translation>
    </message>
    <message>
        <source>Start at login:</source>
        <translation>登入時啟動：</translation>
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
        <translation>PCI 匯流排 %1</translation>
    </message>
    <message>
        <source>nvidia-smi index %1</source>
        <translation>nvidia-smi 編號 %1</translation>
    </message>
    <message>
        <source>State</source>
        <translation>狀態</translation>
    </message>
    <message>
        <source>Last preemption</source>
        <translation>最近一次搶佔</translation>
    </message>
    <message>
        <source>Holders</source>
        <translation>佔用者</translation>
    </message>
    <message>
        <source>Workload</source>
        <translation>工作負載</translation>
    </message>
    <message>
        <source>Workload time</source>
        <translation>工作負載時長</translation>
    </message>
    <message>
        <source>Last hour</source>
        <translation>最近一小時</translation>
    </message>
    <message>
        <source>Last 24 hours</source>
        <translation>最近 24 小時</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>執行中</translation>
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
        <translation>閒置</translation>
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
        <translation>無</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source>%1 today, %2 this week, %3 in total</source>
        <translation>今天 %1，本週 %2，總計 %3</translation>
    </message>
</context>
<context>
    <name>GpuHistoryGraph</name>
    <message>
        <source>Busy and idle, the last hour</source>
        <translation>最近一小時的忙碌與閒置</translation>
    </message>
    <message>
        <source>The last hour: green = workload running, blue = busy with your jobs, dotted = waiting, empty = free</source>
        <translation>最近一小時：綠色 = 工作負載執行中，藍色 = 被您的作業佔用，點狀 = 等待中，空白 = 閒置</translation>
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
        <translation>新增</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>A program on one of these GPUs makes idlegpu stop the workloads there, unless it is one of the ignored programs.</source>
        <translation>這些 GPU 上出現任何程式時，idlegpu 會停止其上的工作負載，被忽略的程式除外。</translation>
    </message>
    <message>
        <source>GPUs:</source>
        <translation>GPU：</translation>
    </message>
    <message>
        <source>Ignored programs:</source>
        <translation>忽略的程式：</translation>
    </message>
    <message>
        <source>Add from current holders</source>
        <translation>從目前佔用者新增</translation>
    </message>
    <message>
        <source>A program computes on it</source>
        <translation>有程式在其上運算</translation>
    </message>
    <message>
        <source>A compute program opens it, or a graphics program uses a large share of it</source>
        <translation>計算程式開啟它，或圖形程式佔用它的很大一部分</translation>
    </message>
    <message>
        <source>A program uses at least this much of its memory:</source>
        <translation>有程式至少使用這麼多顯示記憶體：</translation>
    </message>
    <message>
        <source>No GPU groups.</source>
        <translation>沒有 GPU 群組。</translation>
    </message>
    <message>
        <source>The GPUs this group&apos;s rules apply to.</source>
        <translation>此群組規則適用的 GPU。</translation>
    </message>
    <message>
        <source>Programs that may hold these GPUs without stopping a workload: whole program names. The word @builtin stands for the built-in list.</source>
        <translation>可以佔用這些 GPU 而不會停止工作負載的程式：填寫完整程式名稱。@builtin 代表內建清單。</translation>
    </message>
    <message>
        <source>None given: the built-in list applies (%1).</source>
        <translation>未指定：使用內建清單（%1）。</translation>
    </message>
    <message>
        <source>A program name, such as nvidia-smi</source>
        <translation>程式名稱，例如 nvidia-smi</translation>
    </message>
    <message>
        <source>A compute program opens it, or a graphics program uses a large share of it (default)</source>
        <translation>計算程式開啟它，或圖形程式佔用它的很大一部分（預設）</translation>
    </message>
    <message>
        <source>The GPU is busy when:</source>
        <translation>GPU 忙碌的條件：</translation>
    </message>
    <message>
        <source>A graphics program makes the GPU busy once it uses this share of it.</source>
        <translation>圖形程式佔用 GPU 達到此比例時，GPU 算作忙碌。</translation>
    </message>
    <message>
        <source>A graphics program makes it busy at:</source>
        <translation>圖形程式佔用達到此比例即為忙碌：</translation>
    </message>
    <message>
        <source> MiB</source>
        <translation> MiB</translation>
    </message>
    <message>
        <source>A program makes the GPU busy once it uses this much of its memory.</source>
        <translation>程式佔用 GPU 記憶體達到此值時，GPU 算作忙碌。</translation>
    </message>
    <message>
        <source>Or when it uses this much memory:</source>
        <translation>或佔用記憶體達到：</translation>
    </message>
    <message>
        <source>No GPU groups: the same rules apply to every GPU. idlegpu ignores the programs of the built-in list (%1), and a GPU counts as busy when a compute program opens it, or when a graphics program uses %2 % of it or %3 MiB of its memory.

Add a group to give some GPUs rules of their own.</source>
        <translation>沒有 GPU 群組：所有 GPU 使用相同的規則。idlegpu 忽略內建清單中的程式（%1）；當計算程式開啟 GPU，或圖形程式佔用它的 %2 % 或 %3 MiB 記憶體時，GPU 算作忙碌。

新增一個群組，可為部分 GPU 設定各自的規則。</translation>
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
        <translation>新群組：%1</translation>
    </message>
    <message>
        <source>no GPU node, only the shared ones</source>
        <translation>沒有 GPU 裝置節點，只有共用節點</translation>
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
        <translation>目前沒有程式佔用 GPU</translation>
    </message>
    <message>
        <source>Any program opens it</source>
        <translation>任何程式開啟它</translation>
    </message>
    <message>
        <source>An open device node is the earliest and safest sign of a new job, but the desktop, browsers and video players keep the GPU that drives the display open all day. Waiting for a program to compute or to take memory lets them leave the workload running, but the workload is then stopped a little later: up to a fifth of a second after the job&apos;s first compute context, which needs NVML.</source>
        <translation>裝置節點被開啟是新工作最早、最安全的訊號，但桌面、瀏覽器和影片播放器會整天開啟驅動顯示器的 GPU。等到程式開始運算或佔用記憶體，它們就不會打斷工作負載，但工作負載會停得稍晚：在工作建立第一個運算環境後最多五分之一秒，且需要 NVML。</translation>
    </message>
    <message>
        <source>Compute programs (CUDA, ROCm: they open nvidia-uvm or /dev/kfd) count at once; graphics programs (the desktop, a browser, a video player) only while NVML or the driver measures them using this much of the GPU or its memory.</source>
        <translation>運算程式（CUDA、ROCm：它們會開啟 nvidia-uvm 或 /dev/kfd）立即計入；圖形程式（桌面、瀏覽器、影片播放器）只有在 NVML 或驅動程式測得其使用了下列比例的 GPU 或記憶體時才計入。</translation>
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
        <translation>已暫停</translation>
    </message>
    <message>
        <source>outside the schedule</source>
        <translation>不在排程內</translation>
    </message>
    <message>
        <source>outside the schedule until %1</source>
        <translation>不在排程內（直到 %1）</translation>
    </message>
    <message>
        <source>the computer runs on battery</source>
        <translation>電腦正在使用電池供電</translation>
    </message>
    <message>
        <source>you are at the computer</source>
        <translation>您在電腦前</translation>
    </message>
    <message>
        <source>a user is active on a terminal</source>
        <translation>有使用者在終端機中活動</translation>
    </message>
    <message>
        <source>user %1 is active on a terminal</source>
        <translation>使用者 %1 在終端機中活動</translation>
    </message>
    <message>
        <source>users %1 are active on a terminal</source>
        <translation>使用者 %1 在終端機中活動</translation>
    </message>
    <message>
        <source>, </source>
        <translation>，</translation>
    </message>
    <message>
        <source>too hot: runs again below %1 °C</source>
        <translation>溫度過高：低於 %1 °C 後再執行</translation>
    </message>
    <message>
        <source>too hot (%1 °C): runs again below %2 °C</source>
        <translation>溫度過高（%1 °C）：低於 %2 °C 後再執行</translation>
    </message>
</context>
<context>
    <name>LogViewer</name>
    <message>
        <source>Copy path</source>
        <translation>複製路徑</translation>
    </message>
    <message>
        <source>idlegpu log</source>
        <translation>idlegpu 記錄檔</translation>
    </message>
    <message>
        <source>No log file</source>
        <translation>沒有記錄檔</translation>
    </message>
    <message>
        <source>Path copied</source>
        <translation>路徑已複製</translation>
    </message>
    <message>
        <source>Reload</source>
        <translation>重新載入</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>關閉</translation>
    </message>
    <message>
        <source>The last %1 KiB of the log; an editor shows all of it.</source>
        <translation>記錄檔的最後 %1 KiB；用編輯器可檢視全部內容。</translation>
    </message>
    <message>
        <source>The log is empty.</source>
        <translation>記錄檔是空的。</translation>
    </message>
    <message>
        <source>idlegpu writes no log file in this mode: its messages go to the system journal.</source>
        <translation>idlegpu 在此模式下不寫記錄檔：其訊息寫入系統日誌（journal）。</translation>
    </message>
    <message>
        <source>The log does not exist yet: idlegpu creates it with its first message.</source>
        <translation>記錄檔尚不存在：idlegpu 會在寫入第一則訊息時建立它。</translation>
    </message>
    <message>
        <source>The log cannot be read: %1.</source>
        <translation>無法讀取記錄檔：%1。</translation>
    </message>
    <message>
        <source>The log cannot be read: it belongs to %1 and you may not read it.</source>
        <translation>無法讀取記錄檔：它屬於 %1，您沒有讀取權限。</translation>
    </message>
    <message>
        <source>another user</source>
        <translation>其他使用者</translation>
    </message>
</context>
<context>
    <name>MetricGraph</name>
    <message>
        <source>%1, the last hour: now %2, at most %3</source>
        <translation>%1，最近一小時：當前 %2，最高 %3</translation>
    </message>
    <message>
        <source>%1, the last hour</source>
        <translation>%1，最近一小時</translation>
    </message>
    <message>
        <source>−60 min</source>
        <translation>−60 分鐘</translation>
    </message>
    <message>
        <source>−30 min</source>
        <translation>−30 分鐘</translation>
    </message>
    <message>
        <source>now</source>
        <translation>現在</translation>
    </message>
</context>
<context>
    <name>Notifier</name>
    <message>
        <source>Workload stopped</source>
        <translation>任務已停止</translation>
    </message>
    <message>
        <source>Workload failing</source>
        <translation>任務反覆失敗</translation>
    </message>
    <message>
        <source>Configuration not applied</source>
        <translation>設定未套用</translation>
    </message>
    <message>
        <source>idlegpu</source>
        <translation>idlegpu</translation>
    </message>
    <message>
        <source>1 more preemption</source>
        <translation>另有 1 次搶佔</translation>
    </message>
    <message>
        <source>%1 more preemptions</source>
        <translation>另有 %1 次搶佔</translation>
    </message>
    <message>
        <source>1 more workload failing</source>
        <translation>另有 1 個任務失敗</translation>
    </message>
    <message>
        <source>%1 more workloads failing</source>
        <translation>另有 %1 個任務失敗</translation>
    </message>
    <message>
        <source>1 more configuration error</source>
        <translation>另有 1 個設定錯誤</translation>
    </message>
    <message>
        <source>%1 more configuration errors</source>
        <translation>另有 %1 個設定錯誤</translation>
    </message>
    <message>
        <source>your program</source>
        <translation>你的程式</translation>
    </message>
    <message>
        <source>GPU %1 is yours: stopped %2 %3 ms after %4 opened it</source>
        <translation>GPU %1 歸你了：%4 開啟它 %3 毫秒後已停止 %2</translation>
    </message>
    <message>
        <source>GPU %1 is yours: stopped %2 after %3 opened it</source>
        <translation>GPU %1 歸你了：%3 開啟它後已停止 %2</translation>
    </message>
    <message>
        <source>The GPU is yours</source>
        <translation>GPU 歸你了</translation>
    </message>
    <message>
        <source>Request refused</source>
        <translation>請求被拒絕</translation>
    </message>
    <message>
        <source>1 more request refused</source>
        <translation>另有 1 個請求被拒絕</translation>
    </message>
    <message>
        <source>%1 more requests refused</source>
        <translation>另有 %1 個請求被拒絕</translation>
    </message>
    <message>
        <source>A process of another user</source>
        <translation>另一使用者的程序</translation>
    </message>
    <message>
        <source>A program</source>
        <translation>某個程式</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>%1 took GPU %2: stopped %3</source>
        <translation>%1 佔用了 GPU %2：已停止 %3</translation>
    </message>
    <message>
        <source>%1 failed %2 times in a row</source>
        <translation>%1 已連續失敗 %2 次</translation>
    </message>
    <message>
        <source>%1 failed %2 times in a row (%3)</source>
        <translation>%1 已連續失敗 %2 次（%3）</translation>
    </message>
    <message>
        <source>idlegpu keeps retrying it, less and less often.</source>
        <translation>idlegpu 會繼續重試，但間隔越來越長。</translation>
    </message>
    <message>
        <source>“%1”</source>
        <translation>「%1」</translation>
    </message>
    <message>
        <source>Line %1: %2</source>
        <translation>第 %1 行：%2</translation>
    </message>
    <message>
        <source>The previous configuration stays in force.</source>
        <translation>先前的設定仍然有效。</translation>
    </message>
    <message>
        <source>Paused all workloads</source>
        <translation>已暫停所有任務</translation>
    </message>
    <message>
        <source>Click the icon again to resume.</source>
        <translation>再按一下圖示即可繼續。</translation>
    </message>
    <message>
        <source>Resumed all workloads</source>
        <translation>所有任務已繼續</translation>
    </message>
    <message>
        <source>They start again on idle GPUs. Click the icon to pause.</source>
        <translation>它們會在閒置的 GPU 上重新啟動。按一下圖示即可暫停。</translation>
    </message>
</context>
<context>
    <name>PauseMenu</name>
    <message>
        <source>For 30 minutes</source>
        <translation>30 分鐘</translation>
    </message>
    <message>
        <source>For 1 hour</source>
        <translation>1 小時</translation>
    </message>
    <message>
        <source>For 4 hours</source>
        <translation>4 小時</translation>
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
        <translation>暫停所有工作負載</translation>
    </message>
    <message>
        <source>Keep running</source>
        <translation>繼續執行</translation>
    </message>
    <message>
        <source>What the workloads do while the computer runs on its battery.</source>
        <translation>電腦使用電池供電時，工作負載如何處理。</translation>
    </message>
    <message>
        <source>On battery:</source>
        <translation>使用電池時：</translation>
    </message>
    <message>
        <source> °C</source>
        <translation> °C</translation>
    </message>
    <message>
        <source>Off</source>
        <translation>關閉</translation>
    </message>
    <message>
        <source>A workload whose GPU reaches this temperature stops, and may start again once the GPU is %1 °C cooler. This needs a temperature reading (NVML or the driver). Off (0) never stops a workload for heat.</source>
        <translation>GPU 達到此溫度時，其上的工作負載停止；GPU 降溫 %1 °C 後可再次啟動。這需要溫度讀數（NVML 或驅動程式）。關閉（0）則從不因溫度停止工作負載。</translation>
    </message>
    <message>
        <source>Stop a workload when its GPU reaches:</source>
        <translation>GPU 達到此溫度時停止工作負載：</translation>
    </message>
</context>
<context>
    <name>PreemptionList</name>
    <message>
        <source>Last preemptions</source>
        <translation>最近的搶佔</translation>
    </message>
    <message>
        <source>When</source>
        <translation>時間</translation>
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
        <translation>讓位給</translation>
    </message>
    <message>
        <source>Open to stop</source>
        <translation>開啟到停止</translation>
    </message>
    <message>
        <source>From the foreign program&apos;s open of the GPU to the workload&apos;s stop</source>
        <translation>從外部程式開啟 GPU 到工作負載停止的時間</translation>
    </message>
    <message>
        <source>No workload was stopped for a job of yours yet.</source>
        <translation>尚未有工作負載因您的作業而停止。</translation>
    </message>
    <message>
        <source>by a scan</source>
        <translation>由掃描發現</translation>
    </message>
    <message>
        <source>A scan found the job, not its open: no open-to-stop time</source>
        <translation>作業是由掃描發現的，而不是由其開啟事件：沒有開啟到停止的時間</translation>
    </message>
</context>
<context>
    <name>RemoteMonitor</name>
    <message>
        <source>not authorized</source>
        <translation>未獲授權</translation>
    </message>
    <message>
        <source>the authentication was cancelled</source>
        <translation>身分驗證已取消</translation>
    </message>
    <message>
        <source>a password is needed, and nothing could ask for it</source>
        <translation>需要密碼，但無處可以詢問</translation>
    </message>
    <message>
        <source>too many requests; try again in a moment</source>
        <translation>請求過多，請稍後再試</translation>
    </message>
    <message>
        <source>too many authorizations are pending; try again in a moment</source>
        <translation>待處理的授權過多，請稍後再試</translation>
    </message>
    <message>
        <source>polkit does not answer, so nobody may change anything</source>
        <translation>polkit 沒有回應，因此任何人都不能變更</translation>
    </message>
    <message>
        <source>the idlegpu service did not answer</source>
        <translation>idlegpu 服務沒有回應</translation>
    </message>
    <message>
        <source>the idlegpu service is not running</source>
        <translation>idlegpu 服務未執行</translation>
    </message>
    <message>
        <source>The idlegpu service is not running</source>
        <translation>idlegpu 服務未執行</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <source>Configuration file: %1</source>
        <translation>設定檔：%1</translation>
    </message>
    <message>
        <source>Another program changed the configuration file.</source>
        <translation>另一個程式修改了設定檔。</translation>
    </message>
    <message>
        <source>Reload (discard my edits)</source>
        <translation>重新載入（捨棄我的修改）</translation>
    </message>
    <message>
        <source>Keep my edits</source>
        <translation>保留我的修改</translation>
    </message>
    <message>
        <source>General</source>
        <translation>一般</translation>
    </message>
    <message>
        <source>GPU groups</source>
        <translation>GPU 群組</translation>
    </message>
    <message>
        <source>Workloads</source>
        <translation>工作負載</translation>
    </message>
    <message>
        <source>User activity</source>
        <translation>使用者活動</translation>
    </message>
    <message>
        <source>Power and heat</source>
        <translation>電源與溫度</translation>
    </message>
    <message>
        <source>Show as file…</source>
        <translation>以檔案形式檢視…</translation>
    </message>
    <message>
        <source>Shows the text that saving writes to the configuration file, in gpu_mon&apos;s format.</source>
        <translation>顯示儲存時寫入設定檔的文字（gpu_mon 格式）。</translation>
    </message>
    <message>
        <source>Save and start</source>
        <translation>儲存並啟動</translation>
    </message>
    <message>
        <source>The file cannot be read: %1</source>
        <translation>無法讀取該檔案：%1</translation>
    </message>
    <message>
        <source>The file has errors; where a value could not be read, the field shows its default:
%1</source>
        <translation>該檔案有錯誤；無法讀取的值，其欄位顯示預設值：
%1</translation>
    </message>
    <message>
        <source>“%1” is saved. idlegpu starts it as soon as its GPUs are free.</source>
        <translation>「%1」已儲存。它的 GPU 一閒置，idlegpu 就會啟動它。</translation>
    </message>
    <message>
        <source>“%1” is saved. idlegpu starts it once its GPUs have been free for a second.</source>
        <translation>「%1」已儲存。它的 GPU 閒置一秒後，idlegpu 就會啟動它。</translation>
    </message>
    <message>
        <source>“%1” is saved. idlegpu starts it once its GPUs have been free for %2 seconds.</source>
        <translation>「%1」已儲存。它的 GPU 閒置 %2 秒後，idlegpu 就會啟動它。</translation>
    </message>
    <message>
        <source>It stops the moment one of your own programs opens one of them. The status window shows what it does.</source>
        <translation>一旦你自己的程式開啟其中一個 GPU，它就會停止。狀態視窗會顯示它的執行情況。</translation>
    </message>
    <message>
        <source>Discard changes?</source>
        <translation>放棄變更？</translation>
    </message>
    <message>
        <source>Your changes to the settings are not saved yet.</source>
        <translation>你對設定所做的變更尚未儲存。</translation>
    </message>
    <message>
        <source>Discard them and close the settings, or keep editing?</source>
        <translation>放棄變更並關閉設定，還是繼續編輯？</translation>
    </message>
    <message>
        <source>Discard</source>
        <translation>放棄</translation>
    </message>
    <message>
        <source>Keep editing</source>
        <translation>繼續編輯</translation>
    </message>
    <message>
        <source>Not saved: %1</source>
        <translation>未儲存：%1</translation>
    </message>
    <message>
        <source>Start at login could not be changed: %1</source>
        <translation>無法變更登入時啟動：%1</translation>
    </message>
    <message>
        <source>Welcome</source>
        <translation>歡迎</translation>
    </message>
    <message>
        <source>idlegpu settings</source>
        <translation>idlegpu 設定</translation>
    </message>
    <message>
        <source>One problem keeps the settings from being saved, on the %1 page: %2</source>
        <translation>有一個問題導致設定無法儲存，位於「%1」頁：%2</translation>
    </message>
    <message numerus="yes">
        <source>%n problems keep the settings from being saved. The first, on the %1 page: %2</source>
        <translation>
            <numerusform>有 %n 個問題導致設定無法儲存。第一個位於「%1」頁：%2</numerusform>
        </translation>
    </message>
    <message>
        <source>Close</source>
        <translation>關閉</translation>
    </message>
    <message>
        <source>Configuration file as it will be saved</source>
        <translation>將要儲存的設定檔</translation>
    </message>
    <message>
        <source>The file cannot be shown: %1</source>
        <translation>無法顯示該檔案：%1</translation>
    </message>
    <message>
        <source>This is the text that saving writes to %1. Lines you did not change stay as they are.</source>
        <translation>這是儲存時將寫入 %1 的文字。你未變更的行保持原樣。</translation>
    </message>
    <message>
        <source>Nothing is changed: this is %1 as it is now.</source>
        <translation>沒有任何變更：這是 %1 的目前內容。</translation>
    </message>
    <message>
        <source>Saving through the idlegpu service…</source>
        <translation>正在透過 idlegpu 服務儲存…</translation>
    </message>
    <message>
        <source>Not saved: the configuration changed meanwhile. Close this window and open Settings… again to load it.</source>
        <translation>未儲存：設定在此期間已被變更。請關閉此視窗，再次開啟「設定…」以重新載入。</translation>
    </message>
    <message>
        <source>The idlegpu service did not save the file; nothing was written:
%1</source>
        <translation>idlegpu 服務未儲存該檔案，未寫入任何內容：
%1</translation>
    </message>
    <message>
        <source>Not saved: the file has errors (above).</source>
        <translation>未儲存：檔案有錯誤（見上方）。</translation>
    </message>
</context>
<context>
    <name>SettingsPage</name>
    <message>
        <source>In the configuration file: %1</source>
        <translation>設定檔中的鍵：%1</translation>
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
        <translation>等待中：GPU 空閒，沒有任務在執行</translation>
    </message>
    <message>
        <source>GPUs in use by your jobs</source>
        <translation>GPU 正被您的作業使用</translation>
    </message>
    <message>
        <source>Running idle workloads</source>
        <translation>正在執行閒置任務</translation>
    </message>
    <message>
        <source>Paused</source>
        <translation>已暫停</translation>
    </message>
    <message>
        <source>No GPU found</source>
        <translation>找不到 GPU</translation>
    </message>
    <message>
        <source>Needs attention</source>
        <translation>需要處理</translation>
    </message>
    <message>
        <source>a process of another user (not visible without root)</source>
        <translation>另一位使用者的行程（沒有 root 權限時不可見）</translation>
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
        <translation>執行中</translation>
    </message>
    <message>
        <source>stopping</source>
        <translation>正在停止</translation>
    </message>
    <message>
        <source>failing</source>
        <translation>反覆失敗</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 分鐘</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 小時 %2 分鐘</translation>
    </message>
    <message>
        <source>running %1</source>
        <translation>正在執行 %1</translation>
    </message>
    <message>
        <source>running %1 since %2</source>
        <translation>自 %2 起執行 %1</translation>
    </message>
    <message>
        <source>busy — %1</source>
        <translation>忙碌 — %1</translation>
    </message>
    <message>
        <source>waiting, starting at %1</source>
        <translation>等待中，將於 %1 啟動</translation>
    </message>
    <message>
        <source>waiting, starting in %1 s</source>
        <translation>等待中，%1 秒後啟動</translation>
    </message>
    <message>
        <source>idle</source>
        <translation>閒置</translation>
    </message>
    <message>
        <source>idle — %1</source>
        <translation>閒置 — %1</translation>
    </message>
    <message>
        <source>open, not busy: %1</source>
        <translation>已開啟但未佔用：%1</translation>
    </message>
    <message>
        <source>; </source>
        <translation>；</translation>
    </message>
    <message>
        <source>Paused by a rule</source>
        <translation>已依規則暫停</translation>
    </message>
    <message>
        <source>Paused: %1</source>
        <translation>已暫停：%1</translation>
    </message>
    <message>
        <source>too hot, stopping %1</source>
        <translation>溫度過高，正在停止 %1</translation>
    </message>
    <message>
        <source>idle — paused</source>
        <translation>閒置 — 已暫停</translation>
    </message>
    <message>
        <source>compute client</source>
        <translation>運算用戶端</translation>
    </message>
    <message>
        <source>graphics client</source>
        <translation>圖形用戶端</translation>
    </message>
    <message>
        <source>unseen</source>
        <translation>不可見</translation>
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
        <translation>尚未設定</translation>
    </message>
    <message>
        <source>failed to stop, still lent</source>
        <translation>停止失敗，仍在出借</translation>
    </message>
    <message>
        <source>Slurm unreachable: %1</source>
        <translation>無法連線 Slurm：%1</translation>
    </message>
    <message>
        <source>lent to the lab (no job yet)</source>
        <translation>已借給實驗室（尚無作業）</translation>
    </message>
    <message>
        <source>job %1 (%2)</source>
        <translation>作業 %1（%2）</translation>
    </message>
    <message>
        <source>lent to the lab: %1</source>
        <translation>已借給實驗室：%1</translation>
    </message>
    <message>
        <source>held for you — %1</source>
        <translation>為您保留 — %1</translation>
    </message>
    <message>
        <source>held for you, lent to the lab at %1</source>
        <translation>為您保留，將於 %1 借給實驗室</translation>
    </message>
    <message>
        <source>held for you, lent to the lab in %1 s</source>
        <translation>為您保留，%1 秒後借給實驗室</translation>
    </message>
    <message>
        <source>held for you — paused</source>
        <translation>為您保留 — 已暫停</translation>
    </message>
    <message>
        <source>held for you</source>
        <translation>為您保留</translation>
    </message>
    <message>
        <source>Paused until %1</source>
        <translation>已暫停，直到 %1</translation>
    </message>
</context>
<context>
    <name>StatusWindow</name>
    <message>
        <source>idlegpu status</source>
        <translation>idlegpu 狀態</translation>
    </message>
    <message>
        <source>The colours of the busy/idle strips and the 24-hour timelines</source>
        <translation>忙碌/閒置條和 24 小時時間線的顏色</translation>
    </message>
    <message>
        <source>%1. Below is the last state it sent.</source>
        <translation>%1。下面是它最後傳送的狀態。</translation>
    </message>
    <message>
        <source>Pause all</source>
        <translation>全部暫停</translation>
    </message>
    <message>
        <source>Pause all for…</source>
        <translation>全部暫停一段時間…</translation>
    </message>
    <message>
        <source>Settings…</source>
        <translation>設定…</translation>
    </message>
    <message>
        <source>Open log</source>
        <translation>開啟日誌</translation>
    </message>
    <message>
        <source>Resume all</source>
        <translation>全部繼續</translation>
    </message>
    <message>
        <source>Let every workload run again when its GPUs are free</source>
        <translation>讓每個工作負載在其 GPU 空閒時重新執行</translation>
    </message>
    <message>
        <source>Stop every workload now and start none until you resume</source>
        <translation>立即停止所有工作負載，直到您選擇繼續前不再啟動</translation>
    </message>
    <message>
        <source>Set up…</source>
        <translation>設定精靈…</translation>
    </message>
    <message>
        <source>No GPU device node found in %1: the workloads wait until a GPU appears.</source>
        <translation>在 %1 中找不到 GPU 裝置節點：工作負載會等待 GPU 出現。</translation>
    </message>
</context>
<context>
    <name>TestRun</name>
    <message>
        <source>Test run</source>
        <translation>試執行</translation>
    </message>
    <message>
        <source>Runs the command for %1 seconds as idlegpu would, and shows what it prints.</source>
        <translation>像 idlegpu 那樣執行該指令 %1 秒，並顯示其輸出。</translation>
    </message>
    <message>
        <source>— stopped after %1 seconds —</source>
        <translation>— %1 秒後已停止 —</translation>
    </message>
    <message>
        <source>— ended by signal %1 —</source>
        <translation>— 被訊號 %1 結束 —</translation>
    </message>
    <message>
        <source>— exited with code %1 —</source>
        <translation>— 已結束，結束碼 %1 —</translation>
    </message>
    <message>
        <source>Not started: %1</source>
        <translation>未啟動：%1</translation>
    </message>
    <message>
        <source>Stop test run</source>
        <translation>停止試執行</translation>
    </message>
    <message>
        <source>$ %1</source>
        <translation>$ %1</translation>
    </message>
    <message>
        <source>Not started: the command names no program.</source>
        <translation>未啟動：指令中沒有程式名稱。</translation>
    </message>
    <message>
        <source>Not started: fix “Run as user” first.</source>
        <translation>未啟動：請先修正「執行使用者」。</translation>
    </message>
    <message>
        <source>Not started: the folder “%1” does not exist.</source>
        <translation>未啟動：資料夾「%1」不存在。</translation>
    </message>
    <message>
        <source>Not started: the program “%1” is not found.</source>
        <translation>未啟動：找不到程式「%1」。</translation>
    </message>
    <message>
        <source>Not started: “%1” is not an executable program.</source>
        <translation>未啟動：「%1」不是可執行程式。</translation>
    </message>
    <message>
        <source>Not started: idlegpu-reaper, which supervises the command, is not found at %1.</source>
        <translation>未啟動：在 %1 找不到負責監管該指令的 idlegpu-reaper。</translation>
    </message>
</context>
<context>
    <name>TimelineStrip</name>
    <message>
        <source>The last 24 hours</source>
        <translation>最近 24 小時</translation>
    </message>
    <message>
        <source>The last 24 hours: nothing recorded yet</source>
        <translation>最近 24 小時：尚無記錄</translation>
    </message>
    <message>
        <source>The last 24 hours: %1</source>
        <translation>最近 24 小時：%1</translation>
    </message>
</context>
<context>
    <name>TotalsPanel</name>
    <message>
        <source>What the idle GPUs did</source>
        <translation>閒置 GPU 完成的工作</translation>
    </message>
    <message>
        <source>Today</source>
        <translation>今天</translation>
    </message>
    <message>
        <source>This week</source>
        <translation>本週</translation>
    </message>
    <message>
        <source>In total</source>
        <translation>總計</translation>
    </message>
    <message>
        <source>Workload</source>
        <translation>工作負載</translation>
    </message>
    <message>
        <source>Preemptions</source>
        <translation>搶佔次數</translation>
    </message>
    <message>
        <source>Energy</source>
        <translation>能耗</translation>
    </message>
    <message>
        <source>GPU time with an idle workload running (two GPUs for an hour: 2 GPU-h)</source>
        <translation>執行閒置工作負載的 GPU 時間（兩塊 GPU 執行一小時：2 GPU·小時）</translation>
    </message>
    <message>
        <source>How often a workload was stopped because a program of yours opened its GPU</source>
        <translation>因您的程式開啟 GPU 而停止工作負載的次數</translation>
    </message>
    <message>
        <source>What the GPUs used while a workload ran, as the driver measures it</source>
        <translation>工作負載執行期間 GPU 的耗電量，由驅動測量</translation>
    </message>
    <message>
        <source>—</source>
        <translation>—</translation>
    </message>
    <message>
        <source>Nothing recorded yet.</source>
        <translation>尚無記錄。</translation>
    </message>
    <message>
        <source>Since %1; kept across restarts.</source>
        <translation>自 %1 起；重啟後保留。</translation>
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
        <translation>設定錯誤：%1</translation>
    </message>
    <message>
        <source>%1 failing (%2), retry in %3</source>
        <translation>%1 失敗（%2），%3 後重試</translation>
    </message>
    <message>
        <source>no exit status</source>
        <translation>無結束狀態</translation>
    </message>
    <message>
        <source>All workloads paused until %1</source>
        <translation>所有任務已暫停，直到 %1</translation>
    </message>
    <message>
        <source>All workloads paused</source>
        <translation>所有任務已暫停</translation>
    </message>
    <message>
        <source>No GPU device node found in %1</source>
        <translation>在 %1 中找不到 GPU 裝置節點</translation>
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
        <translation>任務：%1（%2）</translation>
    </message>
    <message>
        <source>Pause all</source>
        <translation>全部暫停</translation>
    </message>
    <message>
        <source>Resume (paused until %1)</source>
        <translation>繼續（已暫停至 %1）</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>繼續</translation>
    </message>
    <message>
        <source>Pause for 1 hour</source>
        <translation>暫停 1 小時</translation>
    </message>
    <message>
        <source>Pause %1</source>
        <translation>暫停 %1</translation>
    </message>
    <message>
        <source>Pause %1 (paused until %2)</source>
        <translation>暫停 %1（已暫停至 %2）</translation>
    </message>
    <message>
        <source>Pause %1 for 1 hour</source>
        <translation>將 %1 暫停 1 小時</translation>
    </message>
    <message>
        <source>Simulate a job on GPU %1</source>
        <translation>在 GPU %1 上模擬一個作業</translation>
    </message>
    <message>
        <source>Status…</source>
        <translation>狀態…</translation>
    </message>
    <message>
        <source>Settings…</source>
        <translation>設定…</translation>
    </message>
    <message>
        <source>Not available yet: edit the configuration file; idlegpu reloads it when it is saved.</source>
        <translation>尚未提供：請編輯設定檔；儲存後 idlegpu 會自動重新載入。</translation>
    </message>
    <message>
        <source>Open log</source>
        <translation>開啟記錄檔</translation>
    </message>
    <message>
        <source>Start at login</source>
        <translation>登入時啟動</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>結束</translation>
    </message>
    <message>
        <source>Click to choose what runs on your idle GPUs</source>
        <translation>點選選擇在閒置 GPU 上執行的內容</translation>
    </message>
    <message>
        <source>idlegpu is not set up yet</source>
        <translation>idlegpu 尚未設定</translation>
    </message>
    <message>
        <source>Set up…</source>
        <translation>設定…</translation>
    </message>
    <message>
        <source>Runs as root (no user =): %1 — add user = NAME to drop root</source>
        <translation>以 root 執行（未設定 user =）：%1 — 新增 user = NAME 以放棄 root 許可權</translation>
    </message>
    <message>
        <source>The idlegpu service is not running</source>
        <translation>idlegpu 服務未執行</translation>
    </message>
    <message>
        <source>no reason given</source>
        <translation>未說明原因</translation>
    </message>
    <message>
        <source>Pause refused: %1</source>
        <translation>暫停被拒絕：%1</translation>
    </message>
    <message>
        <source>Resume refused: %1</source>
        <translation>繼續被拒絕：%1</translation>
    </message>
    <message>
        <source>Reload refused: %1</source>
        <translation>重新載入被拒絕：%1</translation>
    </message>
    <message>
        <source>Settings refused: %1</source>
        <translation>設定被拒絕：%1</translation>
    </message>
    <message>
        <source>  Last output: %1</source>
        <translation>  最後輸出：%1</translation>
    </message>
    <message>
        <source>Failed (%1). Its last output:
%2</source>
        <translation>失敗（%1）。最後的輸出：
%2</translation>
    </message>
    <message>
        <source>Paused all workloads until %1 — click again to resume</source>
        <translation>所有任務已暫停至 %1 — 再按一下即可繼續</translation>
    </message>
    <message>
        <source>Paused all workloads — click again to resume</source>
        <translation>所有任務已暫停 — 再按一下即可繼續</translation>
    </message>
</context>
<context>
    <name>TrayMode</name>
    <message>
        <source>idlegpu is already running for %1 (pid %2).</source>
        <translation>idlegpu 已在為 %1 執行（pid %2）。</translation>
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
        <translation>閒置</translation>
    </message>
    <message>
        <source>Welcome to idlegpu</source>
        <translation>歡迎使用 idlegpu</translation>
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
        <translation>名稱</translation>
    </message>
    <message>
        <source>In use now by</source>
        <translation>當前使用者</translation>
    </message>
    <message>
        <source>Your first workload</source>
        <translation>您的第一個工作負載</translation>
    </message>
    <message>
        <source>Start from:</source>
        <translation>從以下開始：</translation>
    </message>
    <message>
        <source>Name:</source>
        <translation>名稱：</translation>
    </message>
    <message>
        <source>Split into words like a shell does (quotes, backslashes), but no shell runs: write sh -c &apos;…&apos; for pipes or variables.</source>
        <translation>像 shell 一樣拆分為單詞（引號、反斜槓），但不會執行 shell：需要管道或變數時請寫 sh -c &apos;…&apos;。</translation>
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
        <translation>工作資料夾、日誌檔案、環境變數以及何時暫停的規則在其他頁面中。儲存之前不會執行任何內容；儲存後，idlegpu 會在其 GPU 閒置時立即啟動該工作負載。</translation>
    </message>
    <message>
        <source>No GPU found under %1: idlegpu looks for NVIDIA device nodes (nvidia0, nvidia1, …) and the render nodes of AMD and Intel GPUs (dri/renderD128, …). Check that the driver is loaded; idlegpu notices a GPU when its node appears.</source>
        <translation>在 %1 下未找到 GPU：idlegpu 查詢 NVIDIA 裝置節點（nvidia0、nvidia1、…）以及 AMD 和 Intel GPU 的渲染節點（dri/renderD128、…）。請檢查驅動是否已載入；節點出現時 idlegpu 會發現該 GPU。</translation>
    </message>
    <message>
        <source>root (idlegpu runs as root): enter a user to drop root</source>
        <translation>root（idlegpu 以 root 執行）：輸入使用者以放棄 root 許可權</translation>
    </message>
    <message>
        <source>idlegpu runs a workload of your choice (a BOINC or Folding@home client, a miner, any batch job) on the GPUs nobody uses, and stops it the moment one of your own programs opens the GPU. Nothing is set up yet: choose what to run, then press Save and start.</source>
        <translation>idlegpu 在無人使用的 GPU 上執行你選擇的工作負載（BOINC 或 Folding@home 用戶端、挖礦程式、任何批次工作），一旦你自己的程式開啟該 GPU 就立即停止它。目前尚未設定：請選擇要執行的內容，然後按「儲存並啟動」。</translation>
    </message>
    <message>
        <source>Run as user:</source>
        <translation>執行使用者：</translation>
    </message>
</context>
<context>
    <name>WorkloadCard</name>
    <message>
        <source>Its last output:</source>
        <translation>最近的輸出：</translation>
    </message>
    <message>
        <source>Last output</source>
        <translation>最近的輸出</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>暫停</translation>
    </message>
    <message>
        <source>Pause for…</source>
        <translation>暫停一段時間…</translation>
    </message>
    <message>
        <source>%1 (as %2)</source>
        <translation>%1（以 %2 身分）</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>繼續</translation>
    </message>
    <message>
        <source>Resume %1</source>
        <translation>繼續 %1</translation>
    </message>
    <message>
        <source>Pause %1</source>
        <translation>暫停 %1</translation>
    </message>
    <message>
        <source>Pause %1 for a while</source>
        <translation>暫停 %1 一段時間</translation>
    </message>
</context>
<context>
    <name>WorkloadTemplates</name>
    <message>
        <source>Custom command</source>
        <translation>自定義命令</translation>
    </message>
    <message>
        <source>workload</source>
        <translation>工作負載</translation>
    </message>
    <message>
        <source>Any program that computes on the GPU. idlegpu starts it once its GPUs are free and stops it (SIGTERM, then SIGKILL after the stop timeout) the moment another program opens one of them. The command runs without a shell: write sh -c &apos;…&apos; for pipes, variables or ~.</source>
        <translation>任何在 GPU 上計算的程式。idlegpu 在其 GPU 閒置後啟動它，並在其他程式開啟其中一個 GPU 的那一刻將其停止（先 SIGTERM，停止超時後 SIGKILL）。命令不經 shell 執行：需要管道、變數或 ~ 時請寫 sh -c &apos;…&apos;。</translation>
    </message>
    <message>
        <source>BOINC client</source>
        <translation>BOINC 客戶端</translation>
    </message>
    <message>
        <source>The BOINC client (Debian package boinc-client). It keeps its data in the working folder: create %1 first, then attach a project with boinccmd --project_attach URL KEY, or with BOINC Manager. The package also runs a client of its own as the boinc-client service: disable it (sudo systemctl disable --now boinc-client) so that only idlegpu starts BOINC.</source>
        <translation>BOINC 客戶端（Debian 軟體包 boinc-client）。它將資料儲存在工作資料夾中：請先建立 %1，然後使用 boinccmd --project_attach URL KEY 或 BOINC Manager 加入專案。該軟體包還會以 boinc-client 服務的形式執行自己的客戶端：請將其禁用（sudo systemctl disable --now boinc-client），以便只由 idlegpu 啟動 BOINC。</translation>
    </message>
    <message>
        <source>Folding@home</source>
        <translation>Folding@home</translation>
    </message>
    <message>
        <source>Folding@home&apos;s client, version 8 (fah-client). It keeps its work in the working folder: create %1 first, and link the client to your account at app.foldingathome.org. Its package also installs a fah-client service: disable it (sudo systemctl disable --now fah-client) so that only idlegpu starts the client. For version 7 the command is FAHClient --user=NAME --team=0 --gpu=true.</source>
        <translation>Folding@home 客戶端第 8 版（fah-client）。它將工作儲存在工作資料夾中：請先建立 %1，並在 app.foldingathome.org 將客戶端關聯到您的賬戶。其軟體包還會安裝 fah-client 服務：請將其禁用（sudo systemctl disable --now fah-client），以便只由 idlegpu 啟動客戶端。第 7 版的命令是 FAHClient --user=NAME --team=0 --gpu=true。</translation>
    </message>
    <message>
        <source>Miner</source>
        <translation>挖礦程式</translation>
    </message>
    <message>
        <source>A GPU miner: here lolMiner; T-Rex, NBMiner and the others take the same kind of options. Replace POOL_HOST:PORT with your pool&apos;s address, WALLET.WORKER with your wallet and a name for this computer, and ETCHASH with your coin&apos;s algorithm; Browse… picks the miner&apos;s program where it is not in PATH. A miner loses only the share it was working on when it stops, so its stop timeout is short.</source>
        <translation>GPU 挖礦程式：此處為 lolMiner；T-Rex、NBMiner 等使用同類選項。將 POOL_HOST:PORT 替換為礦池地址，將 WALLET.WORKER 替換為您的錢包和這台電腦的名稱，將 ETCHASH 替換為您的幣種演算法；挖礦程式不在 PATH 中時，可用「瀏覽…」選擇其程式。挖礦程式停止時只會丟失正在計算的份額，因此其停止超時較短。</translation>
    </message>
    <message>
        <source>Batch script</source>
        <translation>批次指令碼</translation>
    </message>
    <message>
        <source>Your own script, run by bash: write in %1 whatever should run while the GPUs are idle (in the script, pipes, variables and loops work as in a terminal). CUDA_VISIBLE_DEVICES names the GPUs it may use. When a GPU is needed it gets SIGTERM: trap it to save your progress, or let it end; every process it started is stopped with it.</source>
        <translation>您自己的指令碼，由 bash 執行：在 %1 中寫入 GPU 閒置時應執行的內容（指令碼中的管道、變數和迴圈與終端中一樣有效）。CUDA_VISIBLE_DEVICES 指明它可以使用的 GPU。需要 GPU 時它會收到 SIGTERM：可捕獲該訊號以儲存進度，或任其結束；它啟動的每個行程都會隨之停止。</translation>
    </message>
    <message>
        <source>Test workload (only waits)</source>
        <translation>測試工作負載（僅等待）</translation>
    </message>
    <message>
        <source>A harmless workload that only waits, to see idlegpu at work: it starts once its GPUs are free, writes a line to idlegpu&apos;s log, and stops the moment a program opens one of them, for instance a CUDA job such as python3 -c &apos;import torch; torch.ones(1).cuda(); input()&apos; (nvidia-smi is ignored by default).</source>
        <translation>一個只會等待的無害工作負載，用於觀察 idlegpu 的工作：它在其 GPU 閒置後啟動，在 idlegpu 的日誌中寫入一行，並在某個程式開啟其中一個 GPU 的那一刻停止，例如 CUDA 作業 python3 -c &apos;import torch; torch.ones(1).cuda(); input()&apos;（預設忽略 nvidia-smi）。</translation>
    </message>
    <message>
        <source>BOINC (control the running client)</source>
        <translation>BOINC（控制正在執行的客戶端）</translation>
    </message>
    <message>
        <source>Leaves the BOINC client of the boinc-client service running and only tells it when it may use the GPUs: boinccmd --set_gpu_mode auto lends them, never takes them back. The mode is global to all of BOINC&apos;s GPUs, so keep GPUs at all (or every GPU BOINC may use). Service programs: the client&apos;s name, boinc; add the names of your projects&apos; GPU applications (ps shows them while they compute), or a paused one that stays in memory counts as another program. boinccmd must reach the client: run idlegpu as a user that can read /var/lib/boinc-client/gui_rpc_auth.cfg (in the group boinc).</source>
        <translation>讓 boinc-client 服務的 BOINC 客戶端保持執行，只告訴它何時可以使用 GPU：boinccmd --set_gpu_mode auto 將 GPU 借給它，never 將其收回。該模式對 BOINC 的所有 GPU 全域性生效，因此 GPU 請保持為全部（或 BOINC 可能使用的每塊 GPU）。服務程式：客戶端的名稱 boinc；請新增您的專案的 GPU 應用程式名稱（計算時可用 ps 檢視），否則暫停後仍駐留記憶體的應用程式會被算作其他程式。boinccmd 必須能連線到客戶端：請以能讀取 /var/lib/boinc-client/gui_rpc_auth.cfg 的使用者（屬於 boinc 組）執行 idlegpu。</translation>
    </message>
</context>
<context>
    <name>WorkloadsSettingsPage</name>
    <message>
        <source>Add</source>
        <translation>新增</translation>
    </message>
    <message>
        <source>Duplicate</source>
        <translation>複製</translation>
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
        <translation>系統匣和狀態視窗顯示的名稱。</translation>
    </message>
    <message>
        <source>Name:</source>
        <translation>名稱：</translation>
    </message>
    <message>
        <source>Split into words like a shell does (quotes, backslashes), but no shell runs: write sh -c &apos;…&apos; for pipes or variables.</source>
        <translation>像 shell 一樣拆分為單字（引號、反斜線），但不會執行 shell：需要管線或變數時請寫 sh -c &apos;…&apos;。</translation>
    </message>
    <message>
        <source>%1, or %2 and %3</source>
        <translation>%1，或 %2 和 %3</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>瀏覽…</translation>
    </message>
    <message>
        <source>Command:</source>
        <translation>指令：</translation>
    </message>
    <message>
        <source>Runs when the service may use the GPUs; it must exit with 0 once the service computes. It is split into words like the command; no shell runs.</source>
        <translation>在服務可以使用 GPU 時執行；服務開始計算後它必須以 0 結束。它像命令一樣拆分成單字，不經過 shell。</translation>
    </message>
    <message>
        <source>Runs the moment another program opens one of the GPUs; it must exit with 0 once the service has left them. While it fails, the GPUs stay the service&apos;s and idlegpu tries again.</source>
        <translation>在其他程式開啟其中一個 GPU 時立即執行；服務離開 GPU 後它必須以 0 結束。它失敗期間，GPU 仍歸服務使用，idlegpu 會重試。</translation>
    </message>
    <message>
        <source>Command timeout:</source>
        <translation>命令逾時：</translation>
    </message>
    <message>
        <source>The service&apos;s own programs, separated by commas (whole names, as in the ignored programs of a GPU group): they never count as another program on this workload&apos;s GPUs.</source>
        <translation>服務自己的程式，以逗號分隔（完整名稱，與 GPU 群組的忽略程式相同）：它們在此工作負載的 GPU 上從不算作其他程式。</translation>
    </message>
    <message>
        <source>You</source>
        <translation>你</translation>
    </message>
    <message>
        <source>Run as user:</source>
        <translation>執行使用者：</translation>
    </message>
    <message>
        <source>Home folder</source>
        <translation>家目錄</translation>
    </message>
    <message>
        <source>The folder the command starts in.</source>
        <translation>命令啟動時所在的資料夾。</translation>
    </message>
    <message>
        <source>Working folder:</source>
        <translation>工作資料夾：</translation>
    </message>
    <message>
        <source>The GPUs the workload runs on; it starts when all of them are free.</source>
        <translation>工作負載執行的 GPU；它們全部閒置時才會啟動。</translation>
    </message>
    <message>
        <source>GPUs:</source>
        <translation>GPU：</translation>
    </message>
    <message>
        <source>idlegpu&apos;s own log</source>
        <translation>idlegpu 自己的日誌</translation>
    </message>
    <message>
        <source>Where the workload&apos;s output goes.</source>
        <translation>工作負載輸出寫入的位置。</translation>
    </message>
    <message>
        <source>Log file:</source>
        <translation>日誌檔：</translation>
    </message>
    <message>
        <source>Variable</source>
        <translation>變數</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>Variables set for the workload, on top of idlegpu&apos;s own environment.</source>
        <translation>在 idlegpu 自身環境之上為工作負載設定的變數。</translation>
    </message>
    <message>
        <source>No variables of its own: the workload gets idlegpu&apos;s environment, and CUDA_VISIBLE_DEVICES for its GPUs. Press Add to set one.</source>
        <translation>沒有自己的變數：工作負載使用 idlegpu 的環境，以及對應其 GPU 的 CUDA_VISIBLE_DEVICES。按「新增」可設定變數。</translation>
    </message>
    <message>
        <source>Environment:</source>
        <translation>環境變數：</translation>
    </message>
    <message>
        <source>After asking the workload to stop (SIGTERM), how long to wait before killing it.</source>
        <translation>要求工作負載停止（SIGTERM）後，等待多久再強制結束它。</translation>
    </message>
    <message>
        <source>Enabled (run it when its GPUs are free)</source>
        <translation>啟用（其 GPU 閒置時執行）</translation>
    </message>
    <message>
        <source>The output of a test run shows here.</source>
        <translation>試執行的輸出顯示在這裡。</translation>
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
        <translation>選擇要執行的程式</translation>
    </message>
    <message>
        <source>Choose the working folder</source>
        <translation>選擇工作資料夾</translation>
    </message>
    <message>
        <source>Choose the log file</source>
        <translation>選擇日誌檔</translation>
    </message>
    <message>
        <source>Idle: only CPU time nobody else wants (default)</source>
        <translation>閒置：只用其他程式不用的 CPU 時間（預設）</translation>
    </message>
    <message>
        <source>Low (nice 10)</source>
        <translation>低（nice 10）</translation>
    </message>
    <message>
        <source>Normal, as idlegpu&apos;s own</source>
        <translation>正常，與 idlegpu 本身相同</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>No workloads yet. Until you add one, idlegpu only watches the GPUs. Press Add to run a command or a ready-made example.</source>
        <translation>還沒有工作負載。新增之前，idlegpu 只監看 GPU。按「新增」可執行一個命令或現成的範例。</translation>
    </message>
    <message>
        <source>A GPU runs one workload at a time. When several want the same GPU, workloads on all GPUs go first, then the others in the order of this list. A running workload is never stopped to make way for another.</source>
        <translation>一個 GPU 同一時間只執行一個工作負載。多個工作負載需要同一個 GPU 時，使用所有 GPU 的工作負載優先，其餘按此清單的順序。正在執行的工作負載從不會為其他工作負載讓路而停止。</translation>
    </message>
    <message>
        <source>Stop timeout:</source>
        <translation>停止逾時：</translation>
    </message>
    <message>
        <source>How the workload&apos;s processes share the CPU with your programs. Idle (SCHED_IDLE, nice 19, idle I/O) keeps its CPU threads from ever slowing the desktop or your jobs.</source>
        <translation>工作負載的行程如何與您的程式共用 CPU。「閒置」（SCHED_IDLE、nice 19、閒置 I/O）確保其 CPU 執行緒永遠不會拖慢桌面或您的工作。</translation>
    </message>
    <message>
        <source>CPU priority:</source>
        <translation>CPU 優先順序：</translation>
    </message>
    <message>
        <source>root (idlegpu runs as root): enter a user to drop root</source>
        <translation>root（idlegpu 以 root 執行）：輸入使用者以放棄 root 許可權</translation>
    </message>
    <message>
        <source>The login name (or uid) the workload runs as. Only an idlegpu running as root can run workloads as other users; without one, a workload of a root idlegpu runs as root.</source>
        <translation>工作負載執行所用的登入名（或 uid）。只有以 root 執行的 idlegpu 才能以其他使用者身份執行工作負載；未指定時，root 執行的 idlegpu 的工作負載以 root 身份執行。</translation>
    </message>
    <message>
        <source>Runs a command</source>
        <translation>執行命令</translation>
    </message>
    <message>
        <source>Controls a service</source>
        <translation>控制服務</translation>
    </message>
    <message>
        <source>Runs a command: idlegpu starts it when its GPUs are free and ends it when another program opens one. Controls a service: a program that runs all the time and pauses itself on request (BOINC, Folding@home); idlegpu runs one command to let it use the GPUs and another to make it leave them.</source>
        <translation>執行命令：idlegpu 在其 GPU 閒置時啟動它，並在其他程式開啟其中一個 GPU 時結束它。控制服務：一個始終執行、可按請求自行暫停的程式（BOINC、Folding@home）；idlegpu 執行一條命令讓它使用 GPU，執行另一條命令讓它讓出 GPU。</translation>
    </message>
    <message>
        <source>Kind:</source>
        <translation>型別：</translation>
    </message>
    <message>
        <source>Start command:</source>
        <translation>啟動命令：</translation>
    </message>
    <message>
        <source>Stop command:</source>
        <translation>停止命令：</translation>
    </message>
    <message>
        <source>How long the start or stop command may take before it is killed and counted as failed.</source>
        <translation>啟動或停止命令在被終止並計為失敗之前可以執行的時長。</translation>
    </message>
    <message>
        <source>None</source>
        <translation>無</translation>
    </message>
    <message>
        <source>Service programs:</source>
        <translation>服務程式：</translation>
    </message>
</context>
<context>
    <name>idlegpu</name>
    <message>
        <source>%1: the configuration has errors and would not be used.</source>
        <translation>%1：設定有錯誤，不會被使用。</translation>
    </message>
    <message>
        <source>Using gpu_mon&apos;s configuration file (no idlegpu.conf exists).</source>
        <translation>正在使用 gpu_mon 的設定檔（不存在 idlegpu.conf）。</translation>
    </message>
    <message>
        <source>%1: the configuration has errors; run idlegpu --check-config.</source>
        <translation>%1：設定有錯誤；請執行 idlegpu --check-config。</translation>
    </message>
    <message>
        <source>idlegpu is already running for %1 (pid %2); not starting a second one.</source>
        <translation>idlegpu 已在為 %1 執行（pid %2）；不會啟動第二個執行個體。</translation>
    </message>
    <message>
        <source>idlegpu is already running: %1; not starting a second one.</source>
        <translation>idlegpu 已在執行：%1；不會啟動第二個執行個體。</translation>
    </message>
    <message>
        <source>%1: cannot start with this configuration.</source>
        <translation>%1：無法以此設定啟動。</translation>
    </message>
    <message>
        <source>Run the monitor without a tray icon, logging to stderr (for systemd or supervisord).</source>
        <translation>不帶系統匣圖示執行監視器，記錄輸出到 stderr（用於 systemd 或 supervisord）。</translation>
    </message>
    <message>
        <source>Print each GPU, who holds it and what runs, as the running idlegpu service sees it (the system bus&apos;s, else the session bus&apos;s), or as a look of its own finds it where none answers; then exit.</source>
        <translation>列出每個 GPU、其佔用者以及正在執行的任務：取自正在執行的 idlegpu 服務（先系統匯流排，後會話匯流排），沒有服務應答時則自行查看；然後結束。</translation>
    </message>
    <message>
        <source>With --status: print JSON.</source>
        <translation>與 --status 一起使用：輸出 JSON。</translation>
    </message>
    <message>
        <source>Check the configuration file: print it as understood and exit 0, or print every problem as FILE:LINE: message and exit 1.</source>
        <translation>檢查設定檔：依解讀結果列出設定並以 0 結束，或將每個問題列為 FILE:LINE: message 並以 1 結束。</translation>
    </message>
    <message>
        <source>Use FILE instead of ~/.config/idlegpu/idlegpu.conf (or gpu_mon&apos;s ~/.config/gpu_mon.conf).</source>
        <translation>使用 FILE 取代 ~/.config/idlegpu/idlegpu.conf（或 gpu_mon 的 ~/.config/gpu_mon.conf）。</translation>
    </message>
    <message>
        <source>FILE</source>
        <translation>FILE</translation>
    </message>
    <message>
        <source>--json goes with --status.</source>
        <translation>--json 須與 --status 一起使用。</translation>
    </message>
    <message>
        <source>Runs idle workloads (a miner, BOINC, any batch job) on GPUs that nobody else uses, and stops them the moment another program opens the GPU. Without a mode option it runs in the system tray.</source>
        <translation>在無人使用的 GPU 上執行閒置工作（挖礦程式、BOINC 或任何批次命令），並在其他程式開啟該 GPU 的瞬間停止它們。不加模式選項時在系統匣中執行。</translation>
    </message>
    <message>
        <source>Show the tray with two simulated GPUs and a harmless workload, to see preemption without an NVIDIA card. Leaves nothing behind.</source>
        <translation>顯示帶有兩個模擬 GPU 和一個無害工作的系統匣，無需 NVIDIA 顯示卡即可觀看搶占過程。不會留下任何痕跡。</translation>
    </message>
    <message>
        <source>Processes of other users that could not be inspected: %1. idlegpu still notices when they open a GPU, but not who they are (run as root to see them).</source>
        <translation>無法檢查的其他使用者行程：%1 個。idlegpu 仍能察覺它們開啟 GPU，但無法得知它們是誰（以 root 身分執行即可看到）。</translation>
    </message>
    <message>
        <source>Open the settings dialog on the configuration file (a running idlegpu applies what you save at once).</source>
        <translation>開啟設定檔的設定對話框（正在執行的 idlegpu 會立即套用您儲存的內容）。</translation>
    </message>
    <message>
        <source>%1 need a desktop (no DISPLAY or WAYLAND_DISPLAY is set).</source>
        <translation>%1 需要桌面環境（未設定 DISPLAY 或 WAYLAND_DISPLAY）。</translation>
    </message>
    <message>
        <source>No configuration file: %1 does not exist, nor does gpu_mon&apos;s %2.</source>
        <translation>沒有配置檔案：%1 不存在，gpu_mon 的 %2 也不存在。</translation>
    </message>
    <message>
        <source>idlegpu is not set up yet: %1 does not exist.</source>
        <translation>idlegpu 尚未設定：%1 不存在。</translation>
    </message>
    <message>
        <source>(does not exist: idlegpu is not set up yet)</source>
        <translation>（不存在：idlegpu 尚未設定）</translation>
    </message>
    <message>
        <source>No workloads configured.</source>
        <translation>未配置工作負載。</translation>
    </message>
    <message>
        <source>Add one with idlegpu --settings, or as a [process-NAME] section in %1.</source>
        <translation>可使用 idlegpu --settings 新增，或在 %1 中新增 [process-NAME] 節。</translation>
    </message>
    <message>
        <source>To set idlegpu up, either:
  - on the desktop, run idlegpu --settings (or click the idlegpu icon in the tray), choose a workload and save; or
  - copy the example and edit it:
        mkdir -p %1
        cp %2 %3
    then check it with idlegpu --check-config.
</source>
        <translation>要設定 idlegpu，可以：
  - 在桌面上執行 idlegpu --settings（或點選系統匣中的 idlegpu 圖示），選擇一個工作負載並儲存；或
  - 複製示例並編輯：
        mkdir -p %1
        cp %2 %3
    然後用 idlegpu --check-config 檢查。
</translation>
    </message>
    <message>
        <source>Print the lines of slurm.conf and gres.conf that lend this computer&apos;s GPUs to a Slurm queue ([slurm] in the configuration), for the cluster&apos;s admin to paste; then exit.</source>
        <translation>列印將本機 GPU 借給 Slurm 佇列（配置中的 [slurm]）所需的 slurm.conf 和 gres.conf 行，供叢集管理員貼上；然後退出。</translation>
    </message>
    <message>
        <source>Choose one of %1.</source>
        <translation>請從 %1 中選擇一個。</translation>
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
        <translation>Slurm 的 Prolog（也可透過連結 idlegpu-slurm-prolog 呼叫）：結束碼 0 表示允許作業執行，或在 idlegpu 為其擁有者保留該作業的某個 GPU、或有 idlegpu 未計入的程序正在使用該 GPU 時將作業送回佇列；當 idlegpu 未執行時，將節點設為 drain 並以 1 結束。</translation>
    </message>
    <message>
        <source>Slurm&apos;s HealthCheckProgram (also as the link idlegpu-slurm-health): drain the node while idlegpu is not running; exit 0.</source>
        <translation>Slurm 的 HealthCheckProgram（也可透過連結 idlegpu-slurm-health 呼叫）：idlegpu 未執行時將節點設為 drain；以 0 結束。</translation>
    </message>
    <message>
        <source>Cannot drain node %1: %2</source>
        <translation>無法將節點 %1 設為 drain：%2</translation>
    </message>
    <message>
        <source>Usage: idlegpu-slurm-guard --slurm-prolog | --slurm-health. Slurm runs it through the links idlegpu-slurm-prolog and idlegpu-slurm-health, without arguments.</source>
        <translation>用法：idlegpu-slurm-guard --slurm-prolog | --slurm-health。Slurm 透過連結 idlegpu-slurm-prolog 和 idlegpu-slurm-health 不帶參數地執行它。</translation>
    </message>
    <message>
        <source>Job %1 requeued.</source>
        <translation>作業 %1 已重新排入佇列。</translation>
    </message>
    <message>
        <source>Job %1 cannot be requeued (%2): cancelled.</source>
        <translation>作業 %1 無法重新排入佇列（%2）：已取消。</translation>
    </message>
    <message>
        <source>Slurm unreachable: %1</source>
        <translation>無法連線 Slurm：%1</translation>
    </message>
    <message>
        <source>held for you</source>
        <translation>為您保留</translation>
    </message>
    <message>
        <source>lent to the lab (no job yet)</source>
        <translation>已借給實驗室（尚無作業）</translation>
    </message>
    <message>
        <source>job %1 (%2)</source>
        <translation>作業 %1（%2）</translation>
    </message>
    <message>
        <source>lent to the lab: %1</source>
        <translation>已借給實驗室：%1</translation>
    </message>
    <message>
        <source>Ask the running idlegpu service to pause every workload, or the workload WORKLOAD (its id, process-miner, or its name, miner); until resumed, or for --for&apos;s DURATION. polkit decides who may.</source>
        <translation>請正在執行的 idlegpu 服務暫停所有工作負載，或暫停工作負載 WORKLOAD（其 ID，如 process-miner，或其名稱，如 miner）；直到恢復，或持續 --for 的 DURATION。由 polkit 決定誰可以這樣做。</translation>
    </message>
    <message>
        <source>With --pause: for how long: 90s, 30m, 1h, 2h30m, 1d (at most 30 days).</source>
        <translation>與 --pause 一起使用：暫停多久：90s、30m、1h、2h30m、1d（最多 30 天）。</translation>
    </message>
    <message>
        <source>DURATION</source>
        <translation>DURATION</translation>
    </message>
    <message>
        <source>Ask the running idlegpu service to resume every workload (ending every pause), or the workload WORKLOAD.</source>
        <translation>請正在執行的 idlegpu 服務恢復所有工作負載（結束所有暫停），或恢復工作負載 WORKLOAD。</translation>
    </message>
    <message>
        <source>With --pause or --resume: the workload to pause or resume (all without).</source>
        <translation>與 --pause 或 --resume 一起使用：要暫停或恢復的工作負載（省略則為全部）。</translation>
    </message>
    <message>
        <source>Name one workload, or none for all: %1.</source>
        <translation>請只指定一個工作負載，或不指定以表示全部：%1。</translation>
    </message>
    <message>
        <source>Unexpected argument: %1 (only --pause and --resume take a workload).</source>
        <translation>意外的參數：%1（只有 --pause 和 --resume 接受工作負載）。</translation>
    </message>
    <message>
        <source>A workload&apos;s id or name has at most %1 bytes.</source>
        <translation>工作負載的 ID 或名稱最多 %1 位元組。</translation>
    </message>
    <message>
        <source>--pause and --resume act on the running idlegpu service, which has its own configuration: leave out --config.</source>
        <translation>--pause 和 --resume 作用於正在執行的 idlegpu 服務，它有自己的設定：請去掉 --config。</translation>
    </message>
    <message>
        <source>--for goes with --pause.</source>
        <translation>--for 須與 --pause 一起使用。</translation>
    </message>
    <message>
        <source>--for %1: a pause lasts at most 30 days (30d).</source>
        <translation>--for %1：暫停最多持續 30 天（30d）。</translation>
    </message>
    <message>
        <source>the system bus</source>
        <translation>系統匯流排</translation>
    </message>
    <message>
        <source>your session bus</source>
        <translation>您的會話匯流排</translation>
    </message>
    <message>
        <source>Passed over the idlegpu service on %1: it runs as uid %2, not as %3.</source>
        <translation>已跳過%1上的 idlegpu 服務：它以 uid %2 執行，而不是 %3。</translation>
    </message>
    <message>
        <source>an answer of the signature &quot;%1&quot;, not &quot;ts&quot;</source>
        <translation>簽名為「%1」而不是「ts」的應答</translation>
    </message>
    <message>
        <source>JSON that does not read: %1</source>
        <translation>無法讀取的 JSON：%1</translation>
    </message>
    <message>
        <source>the idlegpu service on %1</source>
        <translation>%1上的 idlegpu 服務</translation>
    </message>
    <message>
        <source>Not authorized: %1</source>
        <translation>未獲授權：%1</translation>
    </message>
    <message>
        <source>Not authorized without a password, and idlegpu cannot ask for one here (%1). Run it on a terminal, or ask the administrator for a polkit rule that allows it (README, &quot;System-wide&quot;).</source>
        <translation>沒有密碼則未獲授權，而 idlegpu 無法在此詢問密碼（%1）。請在終端中執行，或請管理員添加允許此操作的 polkit 規則（README，「System-wide」）。</translation>
    </message>
    <message>
        <source>Cancelled: the authentication was dismissed.</source>
        <translation>已取消：身份驗證被關閉。</translation>
    </message>
    <message>
        <source>No such workload: %1</source>
        <translation>沒有這個工作負載：%1</translation>
    </message>
    <message>
        <source>Refused for now: your user sent the service too many calls (%1). Try again in a moment.</source>
        <translation>暫時被拒絕：您的使用者向服務發送了過多呼叫（%1）。請稍後再試。</translation>
    </message>
    <message>
        <source>The service is busy with other authorizations (%1). Try again in a moment.</source>
        <translation>服務正忙於其他授權（%1）。請稍後再試。</translation>
    </message>
    <message>
        <source>polkit does not answer, so the service cannot tell whether you may (%1). Is polkitd installed and running?</source>
        <translation>polkit 沒有應答，服務無法判斷您是否可以這樣做（%1）。polkitd 是否已安裝並在執行？</translation>
    </message>
    <message>
        <source>The service refused the request: %1</source>
        <translation>服務拒絕了請求：%1</translation>
    </message>
    <message>
        <source>%1 did not answer in time.</source>
        <translation>%1沒有及時應答。</translation>
    </message>
    <message>
        <source>The bus did not let the call through: %1</source>
        <translation>匯流排沒有放行此呼叫：%1</translation>
    </message>
    <message>
        <source>The call failed: %1 (%2)</source>
        <translation>呼叫失敗：%1（%2）</translation>
    </message>
    <message>
        <source>No idlegpu service answers, on the system bus or on your session bus. Start one: the system service with `%1systemctl enable --now idlegpu`, or your own with `idlegpu --headless`.</source>
        <translation>系統匯流排和您的會話匯流排上都沒有 idlegpu 服務應答。請啟動一個：系統服務用 `%1systemctl enable --now idlegpu`，您自己的用 `idlegpu --headless`。</translation>
    </message>
    <message>
        <source>every workload</source>
        <translation>所有工作負載</translation>
    </message>
    <message>
        <source>%1 did not say which workloads it has: %2</source>
        <translation>%1沒有說明它有哪些工作負載：%2</translation>
    </message>
    <message>
        <source>%1 did not give its state: %2</source>
        <translation>%1沒有給出其狀態：%2</translation>
    </message>
    <message>
        <source>From a look at this computer with the configuration given (a running idlegpu service has its own).</source>
        <translation>來自對本機的查看，使用所給的設定（正在執行的 idlegpu 服務有自己的設定）。</translation>
    </message>
    <message>
        <source>From a look at this computer: no idlegpu service answers.</source>
        <translation>來自對本機的查看：沒有 idlegpu 服務應答。</translation>
    </message>
    <message>
        <source>From %1.</source>
        <translation>來自%1。</translation>
    </message>
    <message>
        <source>Paused: every workload, until resumed</source>
        <translation>已暫停：所有工作負載，直到恢復</translation>
    </message>
    <message>
        <source>Paused: every workload, until %1</source>
        <translation>已暫停：所有工作負載，直到 %1</translation>
    </message>
    <message>
        <source>paused until resumed</source>
        <translation>已暫停，直到恢復</translation>
    </message>
    <message>
        <source>paused until %1</source>
        <translation>已暫停，直到 %1</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is the name of %2 workloads (%3): give the id.</source>
        <translation>「%1」是 %2 個工作負載的名稱（%3）：請給出 ID。</translation>
    </message>
    <message>
        <source>No workload &quot;%1&quot;: the idlegpu service has no workloads.</source>
        <translation>沒有工作負載「%1」：idlegpu 服務沒有任何工作負載。</translation>
    </message>
    <message>
        <source>No workload &quot;%1&quot;: the idlegpu service has %2.</source>
        <translation>沒有工作負載「%1」：idlegpu 服務有 %2。</translation>
    </message>
    <message>
        <source>Paused %1 of %2 for %3.</source>
        <translation>已暫停%2的%1，持續 %3。</translation>
    </message>
    <message>
        <source>Paused %1 of %2 until resumed.</source>
        <translation>已暫停%2的%1，直到恢復。</translation>
    </message>
    <message>
        <source>Resumed %1 of %2.</source>
        <translation>已恢復%2的%1。</translation>
    </message>
    <message>
        <source>%1: one workload would not start (see the errors above); the rest of the configuration would be used.</source>
        <translation>%1：有一個工作負載無法啟動（見上方錯誤）；其餘設定仍會使用。</translation>
    </message>
    <message numerus="yes">
        <source>%1: %n workloads would not start (see the errors above); the rest of the configuration would be used.</source>
        <translation>
            <numerusform>%1：有 %n 個工作負載無法啟動（見上方錯誤）；其餘設定仍會使用。</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: the configuration has errors, so no workload would run; run idlegpu --check-config.</source>
        <translation>%1：設定有錯誤，因此不會執行任何工作負載；請執行 idlegpu --check-config。</translation>
    </message>
    <message>
        <source>%1: option &apos;%2&apos; requires an argument</source>
        <translation>%1：選項「%2」需要一個參數</translation>
    </message>
    <message>
        <source>%1: invalid option -- &apos;%2&apos;</source>
        <translation>%1：無效的選項 -- 「%2」</translation>
    </message>
    <message>
        <source>%1: unrecognized option &apos;--%2&apos;</source>
        <translation>%1：無法辨識的選項「--%2」</translation>
    </message>
    <message>
        <source>Did you mean &apos;--%1&apos;?</source>
        <translation>您是不是想用「--%1」？</translation>
    </message>
    <message>
        <source>Print this help and exit.</source>
        <translation>印出此說明並結束。</translation>
    </message>
    <message>
        <source>Print the version and exit.</source>
        <translation>印出版本並結束。</translation>
    </message>
    <message>
        <source>Try &apos;%1 --help&apos; for more information.</source>
        <translation>請嘗試執行「%1 --help」來取得更多資訊。</translation>
    </message>
    <message>
        <source>No workload runs: the configuration has errors (idlegpu --check-config lists them).</source>
        <translation>沒有工作負載執行：設定有錯誤（idlegpu --check-config 會列出它們）。</translation>
    </message>
</context>
</TS>
