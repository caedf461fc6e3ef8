// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The status window, a dashboard of a card per GPU, the last preemptions and the totals under the overall state, with a
// card per configured workload above them; and the place to act: pause and resume all or one workload (for a while
// too), Settings and the log one click away, the configuration's problems as a banner with "Fix in Settings…". It acts
// only through its signals, which the tray connects to the monitor. While it is hidden it only records each GPU's last
// hour, which is cheap, and it redraws when shown.
#include "model/monitorstate.h"
#include "status/gpuhistory.h"
#include "status/metrichistory.h"

#include <QDateTime>
#include <QMap>
#include <QWidget>

class ConfigBanner;
class GpuCard;
class PauseMenu;
class PreemptionList;
class QGridLayout;
class QHBoxLayout;
class QLabel;
class QPushButton;
class QScrollArea;
class QVBoxLayout;
class TotalsPanel;
class WorkloadCard;

class StatusWindow : public QWidget
{
    Q_OBJECT
public:
    explicit StatusWindow(QWidget *parent = nullptr);

    void applyState(const MonitorState &state, qint64 nowMs, const QDateTime &wallNow);
    // Says why the monitor does not answer (the service is away) above its last state; empty while it does.
    void setUnavailable(const QString &why);

    GpuCard *card(int gpu) const { return m_cards.value(gpu); }
    WorkloadCard *workloadCard(const QString &id) const;
    QList<WorkloadCard *> workloadCards() const { return m_workloadCards; } // in the config's order
    ConfigBanner *configBanner() const { return m_banner; }
    QList<GpuCard *> cards() const { return m_cards.values(); } // in GPU order
    PreemptionList *preemptions() const { return m_preemptions; }
    TotalsPanel *totals() const { return m_totals; }
    QScrollArea *scrollArea() const { return m_scroll; }
    GpuHistory history(int gpu) const { return m_histories.value(gpu); }
    MetricHistory metricHistory(int gpu) const { return m_metrics.value(gpu); }
    int refreshCount() const { return m_refreshes; } // how often the widgets were filled: not while hidden

    // Fits a 1280×800 screen with room for a panel and the window's frame, so that no desktop opens it maximised.
    QSize sizeHint() const override;

Q_SIGNALS:
    // Tells whether the window is shown: the GPU metrics are worth sampling only while someone looks.
    void visibilityChanged(bool visible);
    // The person's requests, as the tray's menu makes them (TrayController's signals of the same names).
    void pauseAllRequested(bool paused);
    void pauseForRequested(qint64 ms);
    void workloadPauseRequested(const QString &id, bool paused);
    void workloadPauseForRequested(const QString &id, qint64 ms);
    void openSettingsRequested();
    void setUpRequested(); // not set up yet: Settings opens on its welcome page
    void openLogRequested();

protected:
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void refresh();
    // A card for each GPU present, in index order, two to a row (one GPU: the whole width).
    void placeCards(const QList<GpuStatus> &gpus);
    // A card for each configured workload, in the config's order; kept while the workloads stay, so focus stays.
    void placeWorkloadCards();
    void applyActions();

    QPushButton *m_pauseAll;
    QPushButton *m_pauseFor;
    PauseMenu *m_pauseMenu;
    QPushButton *m_settings;
    QPushButton *m_openLog;
    QLabel *m_summary;  // what idlegpu is doing, in a word or two
    ConfigBanner *m_banner; // the config's errors and warnings
    QLabel *m_noGpu;        // no GPU on the machine, in place of the cards
    QLabel *m_legend = nullptr;
    QVBoxLayout *m_content;
    QVBoxLayout *m_workloadList;
    QHBoxLayout *m_bottom;
    QList<WorkloadCard *> m_workloadCards;
    QScrollArea *m_scroll;
    QGridLayout *m_cardGrid;
    QMap<int, GpuCard *> m_cards;
    PreemptionList *m_preemptions;
    TotalsPanel *m_totals;

    MonitorState m_state;
    QString m_unavailable;
    qint64 m_nowMs = 0;
    QDateTime m_wallNow;
    QHash<int, GpuHistory> m_histories;
    QHash<int, MetricHistory> m_metrics;
    int m_refreshes = 0;
};
