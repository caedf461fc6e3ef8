// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The status window, a dashboard of a card per GPU, the last preemptions and the totals under the overall state. While
// it is hidden it only records each GPU's last hour, which is cheap, and it redraws when shown.
#include "model/monitorstate.h"
#include "status/gpuhistory.h"
#include "status/metrichistory.h"

#include <QDateTime>
#include <QMap>
#include <QWidget>

class GpuCard;
class PreemptionList;
class QGridLayout;
class QLabel;
class QScrollArea;
class TotalsPanel;

class StatusWindow : public QWidget
{
    Q_OBJECT
public:
    explicit StatusWindow(QWidget *parent = nullptr);

    void applyState(const MonitorState &state, qint64 nowMs, const QDateTime &wallNow);
    // Says why the monitor does not answer (the service is away) above its last state; empty while it does.
    void setUnavailable(const QString &why);

    GpuCard *card(int gpu) const { return m_cards.value(gpu); }
    QList<GpuCard *> cards() const { return m_cards.values(); } // in GPU order
    PreemptionList *preemptions() const { return m_preemptions; }
    TotalsPanel *totals() const { return m_totals; }
    QScrollArea *scrollArea() const { return m_scroll; }
    GpuHistory history(int gpu) const { return m_histories.value(gpu); }
    MetricHistory metricHistory(int gpu) const { return m_metrics.value(gpu); }
    int refreshCount() const { return m_refreshes; } // how often the widgets were filled: not while hidden

Q_SIGNALS:
    // Tells whether the window is shown: the GPU metrics are worth sampling only while someone looks.
    void visibilityChanged(bool visible);

protected:
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void refresh();
    // A card for each GPU present, in index order, two to a row (one GPU: the whole width).
    void placeCards(const QList<GpuStatus> &gpus);

    QLabel *m_summary;  // what idlegpu is doing, in a word or two
    QLabel *m_problems; // the config's errors and warnings, a missing GPU
    QLabel *m_legend = nullptr;
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
