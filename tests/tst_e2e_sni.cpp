// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// End-to-end test of the StatusNotifierItem tray, the tray of KDE Plasma, GNOME with the AppIndicator extension and
// the Wayland panels: the real idlegpu in tray mode on fake device nodes, a private session bus with a fake
// StatusNotifierWatcher (a panel) and a fake notification server, and a private X display, since only Qt's xcb
// platform asks for the D-Bus tray (offscreen has no tray at all). The test is the panel: it reads the item's
// properties and menu (com.canonical.dbusmenu) as Plasma does, clicks the item (Activate) and the menu (Event
// "clicked"), and checks the workload stops and runs again and the item follows.
//
// Needs dbus-daemon and Xvfb: missing, they fail the test rather than skip it, as e2e_tray.sh does.
#include "config/useraccount.h"
#include "fakenotificationserver.h"
#include "fakestatusnotifierwatcher.h"
#include "privatebus.h"
#include "testsupport.h"
#include "tray/trayiconrenderer.h"
#include "virtualdisplay.h"

#include <QDBusArgument>
#include <QDBusMessage>
#include <QDBusObjectPath>
#include <QDBusVariant>
#include <QRegularExpression>
#include <QtEndian>
#include <QtTest>

#include <unistd.h>

using namespace TestSupport;

namespace {

// A cap on each wait for idlegpu (a loaded CI machine), not a measure: every wait ends as soon as its condition holds.
constexpr int kTimeoutMs = 15'000;
const QString kItemPath = QStringLiteral("/StatusNotifierItem");
const QString kItemInterface = QStringLiteral("org.kde.StatusNotifierItem");
const QString kMenuInterface = QStringLiteral("com.canonical.dbusmenu");

// One entry of a dbusmenu layout, (ia{sv}av).
struct MenuEntry
{
    int id = 0;
    QVariantMap properties;
    QList<MenuEntry> children;

    QString label() const { return properties.value(QStringLiteral("label")).toString(); }
    bool isSeparator() const
    {
        return properties.value(QStringLiteral("type")).toString() == QLatin1String("separator");
    }
    // Absent means enabled (the dbusmenu spec's default).
    bool isEnabled() const { return properties.value(QStringLiteral("enabled"), true).toBool(); }
};

const QDBusArgument &operator>>(const QDBusArgument &argument, MenuEntry &entry)
{
    argument.beginStructure();
    argument >> entry.id >> entry.properties;
    argument.beginArray();
    while (!argument.atEnd()) {
        QDBusVariant child;
        argument >> child;
        MenuEntry childEntry;
        qvariant_cast<QDBusArgument>(child.variant()) >> childEntry;
        entry.children.append(childEntry);
    }
    argument.endArray();
    argument.endStructure();
    return argument;
}

// An a(iiay) of the StatusNotifierItem spec: images as ARGB32 in network byte order. Entries that do not add up
// are left out.
QList<QImage> images(const QDBusArgument &argument)
{
    QList<QImage> result;
    argument.beginArray();
    while (!argument.atEnd()) {
        int width = 0, height = 0;
        QByteArray data;
        argument.beginStructure();
        argument >> width >> height >> data;
        argument.endStructure();
        if (width <= 0 || height <= 0 || data.size() != qsizetype(width) * height * 4)
            continue;
        QImage image(width, height, QImage::Format_ARGB32);
        qFromBigEndian<quint32>(data.constData(), qsizetype(width) * height, image.bits());
        result.append(image);
    }
    argument.endArray();
    return result;
}

// The IconPixmap entry of `size` px; null if none.
QImage iconPixmap(const QVariant &property, int size)
{
    const QList<QImage> all = images(qvariant_cast<QDBusArgument>(property));
    for (const QImage &image : all)
        if (image.size() == QSize(size, size))
            return image;
    return QImage();
}

// The ToolTip property (sa(iiay)ss): icon name, images, title, text.
struct ToolTip
{
    QString title;
    QString text;
};
ToolTip toolTip(const QVariant &property)
{
    const QDBusArgument argument = qvariant_cast<QDBusArgument>(property);
    ToolTip tip;
    QString iconName;
    argument.beginStructure();
    argument >> iconName;
    images(argument);
    argument >> tip.title >> tip.text;
    argument.endStructure();
    return tip;
}

} // namespace

// Counts the D-Bus signals it is connected to.
class SignalCounter : public QObject
{
    Q_OBJECT
public:
    int count = 0;
public Q_SLOTS:
    void onSignal() { ++count; }
};

class TestE2eSni : public QObject
{
    Q_OBJECT

private:
    PrivateBus m_bus;
    VirtualDisplay m_display;
    FakeStatusNotifierWatcher m_watcher;
    FakeNotificationServer m_notifications;
    QDBusConnection m_panel{QString()}; // the test's own connection: the panel that shows the item
    QTemporaryDir m_home;
    std::unique_ptr<FakeDevRoot> m_dev;
    QString m_user;
    QProcess m_idlegpu;
    QString m_itemService; // the unique name of idlegpu's item connection
    SignalCounter m_newIcon, m_newToolTip, m_layoutUpdated;
    QImage m_runningIcon;

    QString logPath() const { return m_home.filePath(QStringLiteral("idlegpu.log")); }
    QByteArray log() const
    {
        QFile file(logPath());
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("(no log)");
    }
    QByteArray logTail() const { return log().right(3000); }
    QString startsPath() const { return m_home.filePath(QStringLiteral("starts")); }
    // The pids the workload wrote at each start, first to last.
    QList<qint64> starts() const
    {
        QFile file(startsPath());
        QList<qint64> pids;
        if (file.open(QIODevice::ReadOnly))
            for (const QByteArray &line : file.readAll().split('\n'))
                if (!line.trimmed().isEmpty())
                    pids.append(line.trimmed().toLongLong());
        return pids;
    }
    // The Nth start (from 1) happened and that workload runs.
    bool started(int n) const
    {
        const QList<qint64> pids = starts();
        return pids.size() >= n && processAlive(pids.at(n - 1));
    }

    // A call as the panel makes it; the event loop runs meanwhile, so the fakes in this process can answer idlegpu.
    QDBusMessage call(const QString &path, const QString &interface, const QString &method,
                      const QVariantList &args = {})
    {
        QDBusMessage message = QDBusMessage::createMethodCall(m_itemService, path, interface, method);
        message.setArguments(args);
        return m_panel.call(message, QDBus::BlockWithGui, kTimeoutMs);
    }
    QVariantMap itemProperties()
    {
        const QDBusMessage reply = call(kItemPath, QStringLiteral("org.freedesktop.DBus.Properties"),
                                        QStringLiteral("GetAll"), {kItemInterface});
        if (reply.type() != QDBusMessage::ReplyMessage || reply.signature() != QLatin1String("a{sv}")) {
            qWarning("GetAll of the item: %s %s", qPrintable(reply.errorName()), qPrintable(reply.errorMessage()));
            return {};
        }
        return qdbus_cast<QVariantMap>(reply.arguments().constFirst());
    }
    // A left click on the item, as the panel sends it.
    QDBusMessage activate() { return call(kItemPath, kItemInterface, QStringLiteral("Activate"), {0, 0}); }
    QString toolTipTitle() { return toolTip(itemProperties().value(QStringLiteral("ToolTip"))).title; }
    QImage icon22() { return iconPixmap(itemProperties().value(QStringLiteral("IconPixmap")), 22); }
    // The menu at the item's Menu path, whole.
    MenuEntry menu()
    {
        const QString path = qvariant_cast<QDBusObjectPath>(itemProperties().value(QStringLiteral("Menu"))).path();
        const QDBusMessage reply = call(path, kMenuInterface, QStringLiteral("GetLayout"), {0, -1, QStringList()});
        MenuEntry root;
        if (reply.type() == QDBusMessage::ReplyMessage && reply.signature() == QLatin1String("u(ia{sv}av)"))
            qvariant_cast<QDBusArgument>(reply.arguments().at(1)) >> root;
        else
            qWarning("GetLayout: %s %s", qPrintable(reply.errorName()), qPrintable(reply.errorMessage()));
        return root;
    }
    static QStringList labels(const MenuEntry &menu)
    {
        QStringList result;
        for (const MenuEntry &entry : menu.children)
            result.append(entry.isSeparator() ? QStringLiteral("---") : entry.label());
        return result;
    }
    static MenuEntry entryLabelled(const MenuEntry &menu, const QString &label)
    {
        for (const MenuEntry &entry : menu.children)
            if (entry.label() == label)
                return entry;
        return {};
    }
    // A click on the menu item labelled `label`, as the panel sends it.
    bool clickMenu(const QString &label)
    {
        const MenuEntry entry = entryLabelled(menu(), label);
        if (entry.id == 0)
            return false;
        const QString path = qvariant_cast<QDBusObjectPath>(itemProperties().value(QStringLiteral("Menu"))).path();
        const QDBusMessage reply = call(path, kMenuInterface, QStringLiteral("Event"),
                                        {entry.id, QStringLiteral("clicked"), QVariant::fromValue(QDBusVariant(0)),
                                         uint(QDateTime::currentSecsSinceEpoch())});
        return reply.type() == QDBusMessage::ReplyMessage;
    }
    // The pid of the process behind a connection on the bus.
    qint64 pidOf(const QString &uniqueName)
    {
        QDBusMessage message = QDBusMessage::createMethodCall(
            QStringLiteral("org.freedesktop.DBus"), QStringLiteral("/org/freedesktop/DBus"),
            QStringLiteral("org.freedesktop.DBus"), QStringLiteral("GetConnectionUnixProcessID"));
        message << uniqueName;
        const QDBusMessage reply = m_panel.call(message, QDBus::BlockWithGui, kTimeoutMs);
        return reply.type() == QDBusMessage::ReplyMessage ? qint64(reply.arguments().value(0).toUInt()) : -1;
    }
    void connectItemSignal(const QString &name, SignalCounter *counter)
    {
        QVERIFY(m_panel.connect(m_itemService, kItemPath, kItemInterface, name, counter, SLOT(onSignal())));
    }

private Q_SLOTS:
    void initTestCase()
    {
        QString why;
        QVERIFY2(m_bus.start(&why), qPrintable(why));
        QVERIFY2(m_display.start(&why), qPrintable(why));
        QVERIFY2(m_watcher.start(m_bus.address(), &why), qPrintable(why));
        QVERIFY2(m_notifications.start(m_bus.address(), &why), qPrintable(why));
        m_panel = QDBusConnection::connectToBus(m_bus.address(), QStringLiteral("panel"));
        QVERIFY(m_panel.isConnected());
        QVERIFY(m_home.isValid());

        m_dev = std::make_unique<FakeDevRoot>(1);
        const std::optional<UserAccount> me = UserLookup::findAccount(QString::number(::geteuid()));
        QVERIFY(me);
        m_user = me->name;
        // user= names whoever runs the test: a root idlegpu would warn about a workload that names none.
        const QString config = writeFile(
            m_home.filePath(QStringLiteral("e2e.conf")),
            QStringLiteral("[defaults]\nstart_delay_seconds = 0\ndevice_root = %1\n\n"
                           "[process-e2e]\nname = e2e_miner\ncmd = sh -c 'echo $$ >> %2; exec sleep 1000'\n"
                           "user = %3\ngpus = 0\n")
                .arg(m_dev->path(), startsPath(), m_user)
                .toUtf8());
        QFile::setPermissions(config, QFileDevice::ReadOwner | QFileDevice::WriteOwner);

        // Nothing of the machine's desktop: its own X display, session bus and XDG folders.
        const QProcessEnvironment env = trayUnderTestEnvironment(m_home.path(), m_display.display(), m_bus.address());
        QVERIFY(!env.isEmpty());
        QVERIFY2(startIdlegpuBinary(m_idlegpu, env, {QStringLiteral("--config"), config}, logPath()),
                 qPrintable(m_idlegpu.errorString()));
    }

    void init()
    {
        // Without an item every later check would only wait out its time-out.
        if (qstrcmp(QTest::currentTestFunction(), "registersItsItem") != 0 && m_itemService.isEmpty())
            QFAIL("idlegpu registered no item");
    }

    void cleanupTestCase()
    {
        terminateAndWait(m_idlegpu);
        m_watcher.stop();
        m_notifications.stop();
    }

    // idlegpu asks the watcher whether a host is there and registers its item; nothing else registers one.
    void registersItsItem()
    {
        QTRY_VERIFY2_WITH_TIMEOUT(!m_watcher.registrations().isEmpty(),
                                  qPrintable(QStringLiteral("no item registered with the watcher; idlegpu said:\n")
                                             + QString::fromUtf8(logTail())),
                                  kTimeoutMs);
        const FakeStatusNotifierWatcher::Registration registration = m_watcher.registrations().constFirst();
        QCOMPARE(pidOf(registration.sender), m_idlegpu.processId());
        QCOMPARE(registration.item, registration.sender + kItemPath);
        m_itemService = registration.sender;
        QTRY_VERIFY2_WITH_TIMEOUT(started(1), qPrintable(QString::fromUtf8(logTail())), kTimeoutMs);
        QCOMPARE(m_watcher.registrations().size(), 1);
    }

    // What a panel reads to show the item: its identity, its picture, its tooltip, where its menu is.
    void itemPropertiesReadable()
    {
        const QVariantMap item = itemProperties();
        QCOMPARE(item.value(QStringLiteral("Id")).toString(), QStringLiteral("idlegpu"));
        QCOMPARE(item.value(QStringLiteral("Title")).toString(), QStringLiteral("idlegpu"));
        QCOMPARE(item.value(QStringLiteral("Category")).toString(), QStringLiteral("ApplicationStatus"));
        QCOMPARE(item.value(QStringLiteral("Status")).toString(), QStringLiteral("Active"));
        QCOMPARE(item.value(QStringLiteral("ItemIsMenu")).toBool(), false); // a left click is ours: pause/resume
        QCOMPARE(qvariant_cast<QDBusObjectPath>(item.value(QStringLiteral("Menu"))).path(), QStringLiteral("/MenuBar"));

        // The picture goes as pixels (idlegpu draws it; no theme has it): the renderer's, at the panel's 22 px.
        m_runningIcon = iconPixmap(item.value(QStringLiteral("IconPixmap")), 22);
        QVERIFY2(!m_runningIcon.isNull(), "no 22 px IconPixmap");
        QCOMPARE(m_runningIcon,
                 TrayIconRenderer::render(OverallState::Running, 22).convertToFormat(QImage::Format_ARGB32));

        const ToolTip tip = toolTip(item.value(QStringLiteral("ToolTip")));
        const QStringList lines = tip.title.split(QLatin1Char('\n'));
        QCOMPARE(lines.value(0), QStringLiteral("idlegpu — Running idle workloads"));
        QVERIFY2(lines.value(1).startsWith(QStringLiteral("GPU 0: running e2e_miner")), qPrintable(tip.title));
    }

    // The menu as a panel reads it: the tray's actions, labelled as in the XEmbed tray's QMenu, where "_" marks a
    // mnemonic and "__" stands for "_" (the workload is e2e_miner), and the GPU's section with its title.
    void menuHasTheTrayItems()
    {
        const MenuEntry root = menu();
        const QStringList shown = labels(root);
        QStringList actions;
        for (const MenuEntry &entry : root.children)
            if (!entry.isSeparator() && entry.isEnabled())
                actions.append(entry.label());
        QCOMPARE(actions,
                 QStringList({QStringLiteral("Pause all"), QStringLiteral("Pause for 1 hour"),
                              QStringLiteral("Pause e2e__miner"), QStringLiteral("Pause e2e__miner for 1 hour"),
                              QStringLiteral("Status…"), QStringLiteral("Settings…"), QStringLiteral("Open log"),
                              QStringLiteral("Start at login"), QStringLiteral("Quit")}));
        // The GPU's line comes first, as information (not clickable).
        const QString joined = shown.join(QLatin1Char('|'));
        QVERIFY2(joined.contains(QStringLiteral("GPU 0|running e2e__miner")), qPrintable(joined));
        QVERIFY(!entryLabelled(root, QStringLiteral("GPU 0")).isEnabled());

        const MenuEntry autostart = entryLabelled(root, QStringLiteral("Start at login"));
        QCOMPARE(autostart.properties.value(QStringLiteral("toggle-type")).toString(), QStringLiteral("checkmark"));
        QCOMPARE(autostart.properties.value(QStringLiteral("toggle-state")).toInt(), 0);
        const MenuEntry pauseWorkload = entryLabelled(root, QStringLiteral("Pause e2e__miner"));
        QCOMPARE(pauseWorkload.properties.value(QStringLiteral("toggle-type")).toString(), QStringLiteral("checkmark"));
    }

    // A left click on the item (Activate) pauses everything, a second one resumes; the picture and the tooltip
    // follow, with the signals that tell the panel to read them again.
    void activatePausesAndResumes()
    {
        connectItemSignal(QStringLiteral("NewIcon"), &m_newIcon);
        connectItemSignal(QStringLiteral("NewToolTip"), &m_newToolTip);
        const qint64 first = starts().constFirst();

        QCOMPARE(activate().type(), QDBusMessage::ReplyMessage);
        QTRY_VERIFY2_WITH_TIMEOUT(!processAlive(first), "the workload still runs after Activate", kTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(m_newIcon.count > 0 && m_newToolTip.count > 0, kTimeoutMs);
        QTRY_COMPARE_WITH_TIMEOUT(toolTipTitle().section(QLatin1Char('\n'), 0, 1),
                                  QStringLiteral("idlegpu — Paused\nAll workloads paused"), kTimeoutMs);
        QCOMPARE(icon22(), TrayIconRenderer::render(OverallState::Paused, 22).convertToFormat(QImage::Format_ARGB32));
        QCOMPARE(starts().size(), 1); // paused stays paused

        const int icons = m_newIcon.count, toolTips = m_newToolTip.count;
        QCOMPARE(activate().type(), QDBusMessage::ReplyMessage);
        QTRY_VERIFY2_WITH_TIMEOUT(started(2), "the workload did not run again after the second Activate", kTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(m_newIcon.count > icons && m_newToolTip.count > toolTips, kTimeoutMs);
        // Running again, since the second start (a minute may have turned meanwhile: not the first text again).
        QTRY_COMPARE_WITH_TIMEOUT(toolTipTitle().section(QLatin1Char('\n'), 0, 0),
                                  QStringLiteral("idlegpu — Running idle workloads"), kTimeoutMs);
        QVERIFY(toolTipTitle().section(QLatin1Char('\n'), 1, 1).startsWith(QStringLiteral("GPU 0: running e2e_miner")));
        QCOMPARE(icon22(), m_runningIcon);
    }

    // "Pause all" clicked in the menu pauses; the menu says "Resume" then (LayoutUpdated tells the panel), and
    // "Resume" clicked brings the workload back.
    void menuClickActs()
    {
        const QString path = qvariant_cast<QDBusObjectPath>(itemProperties().value(QStringLiteral("Menu"))).path();
        QVERIFY(m_panel.connect(m_itemService, path, kMenuInterface, QStringLiteral("LayoutUpdated"), &m_layoutUpdated,
                                SLOT(onSignal())));
        const qint64 running = starts().constLast();

        QVERIFY(clickMenu(QStringLiteral("Pause all")));
        QTRY_VERIFY2_WITH_TIMEOUT(!processAlive(running), "the workload still runs after \"Pause all\"", kTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(m_layoutUpdated.count > 0, kTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(entryLabelled(menu(), QStringLiteral("Resume")).isEnabled(), kTimeoutMs);
        QVERIFY(entryLabelled(menu(), QStringLiteral("Pause all")).id == 0);

        const int before = starts().size();
        QVERIFY(clickMenu(QStringLiteral("Resume")));
        QTRY_VERIFY2_WITH_TIMEOUT(started(before + 1), "the workload did not run again after \"Resume\"", kTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(entryLabelled(menu(), QStringLiteral("Pause all")).isEnabled(), kTimeoutMs);
    }

    // A CUDA job opens the GPU: the workload stops and the desktop's notification server says so, once, through
    // idlegpu's own Notify (not Qt's tray balloon, which would send a second one).
    void preemptionIsNotified()
    {
        // The two Activates before said what they did (the menu's "Pause all" did not: the menu says it).
        QStringList clickAnswers;
        for (const FakeNotificationServer::Call &call : m_notifications.calls())
            clickAnswers.append(call.summary);
        QCOMPARE(clickAnswers,
                 QStringList({QStringLiteral("Paused all workloads"), QStringLiteral("Resumed all workloads")}));

        const qint64 running = starts().constLast();
        NodeHolder job(m_dev->computeJob(0), QStringLiteral("python3"));
        QVERIFY(job.waitUntilOpen());
        QTRY_VERIFY2_WITH_TIMEOUT(!processAlive(running), "the workload still runs beside a job", kTimeoutMs);
        QTRY_COMPARE_WITH_TIMEOUT(m_notifications.calls().size(), int(clickAnswers.size()) + 1, kTimeoutMs);
        const FakeNotificationServer::Call notified = m_notifications.calls().constLast();
        QCOMPARE(pidOf(m_notifications.lastSender()), m_idlegpu.processId());
        QCOMPARE(notified.appName, QStringLiteral("idlegpu"));
        // The icon's name only where the theme has it (not in a build tree); its pixels always.
        QVERIFY2(notified.appIcon.isEmpty() || notified.appIcon == QStringLiteral("idlegpu"),
                 qPrintable(notified.appIcon));
        QCOMPARE(notified.imageWidth, 64);
        QCOMPARE(notified.replacesId, 0u);
        // The job is the tray's own user's: told that the GPU is theirs now, and how fast it was freed.
        QCOMPARE(notified.summary, QStringLiteral("The GPU is yours"));
        QVERIFY2(QRegularExpression(QStringLiteral("^GPU 0 is yours: stopped e2e_miner ([0-9.]+ ms )?after python3 "
                                                   "opened it$"))
                     .match(notified.body)
                     .hasMatch(),
                 qPrintable(notified.body));
        QCOMPARE(notified.hints.value(QStringLiteral("desktop-entry")).toString(), QStringLiteral("idlegpu"));
        QCOMPARE(notified.hints.value(QStringLiteral("urgency")).value<uchar>(), uchar(1));
        QCOMPARE(notified.expireTimeout, 10'000);
        // The item stays as it was: Qt's balloon would have set NeedsAttention.
        QCOMPARE(itemProperties().value(QStringLiteral("Status")).toString(), QStringLiteral("Active"));

        const int before = starts().size();
        job.kill();
        QTRY_VERIFY2_WITH_TIMEOUT(started(before + 1), "the workload did not come back after the job", kTimeoutMs);
        QCOMPARE(m_notifications.calls().size(), int(clickAnswers.size()) + 1);
    }

    // "Quit" in the menu ends idlegpu cleanly, its workload with it, and nothing warned on the way.
    void quitFromTheMenu()
    {
        const qint64 running = starts().constLast();
        QVERIFY(clickMenu(QStringLiteral("Quit")));
        QVERIFY2(m_idlegpu.waitForFinished(kTimeoutMs), "idlegpu still runs after \"Quit\"");
        QCOMPARE(m_idlegpu.exitStatus(), QProcess::NormalExit);
        QCOMPARE(m_idlegpu.exitCode(), 0);
        QTRY_VERIFY_WITH_TIMEOUT(!processAlive(running), kTimeoutMs);
        // idlegpu's messages and Qt's share one pattern, which marks warnings and errors.
        const QString said = QString::fromUtf8(log());
        const QRegularExpression warning(QStringLiteral("^[0-9-]+ [0-9:.]+ (warning|error|critical): .*$"),
                                         QRegularExpression::MultilineOption);
        // As root, user = root is the config's own choice, which its check warns of: that warning alone is expected.
        const QString rootWarning = QStringLiteral("e2e.conf:8: warning: user = root: this workload runs as root");
        for (QRegularExpressionMatchIterator it = warning.globalMatch(said); it.hasNext();) {
            const QString line = it.next().captured(0);
            QVERIFY2(::geteuid() == 0 && line.contains(rootWarning), qPrintable(line));
        }
    }
};

QTEST_GUILESS_MAIN(TestE2eSni)
#include "tst_e2e_sni.moc"
